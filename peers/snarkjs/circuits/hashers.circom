pragma circom 2.0.0;

// zkbench's 2-to-1 node hashes in circom, with circomlib's templates:
//   poseidon    = circomlib Poseidon(2)                      (zkbench family `poseidon`)
//   mimc-sponge = circomlib MiMCSponge(2, 220, 1), key 0     (zkbench family `mimc-sponge`,
//                 Tornado Cash's hashLeftRight)
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mimcsponge.circom";

// HASH: 0 = poseidon, 1 = mimc-sponge.
template Node(HASH) {
    signal input l;
    signal input r;
    signal output out;
    if (HASH == 0) {
        component p = Poseidon(2);
        p.inputs[0] <== l;
        p.inputs[1] <== r;
        out <== p.out;
    } else {
        component m = MiMCSponge(2, 220, 1);
        m.ins[0] <== l;
        m.ins[1] <== r;
        m.k <== 0;
        out <== m.outs[0];
    }
}
