pragma circom 2.0.0;

// zkbench's 2-to-1 node hashes in circom (HashFamily::node_hasher(2) of crates/hash):
//   poseidon    = circomlib Poseidon(2)                      (zkbench family `poseidon`)
//   mimc-sponge = circomlib MiMCSponge(2, 220, 1), key 0     (zkbench family `mimc-sponge`,
//                 Tornado Cash's hashLeftRight)
//   gmimc, poseidon2, neptune = zkbench_hashes.circom, generated from zkbench's own
//                 constants by `cargo run -p zkbench-hash --example circom`
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mimcsponge.circom";
include "zkbench_hashes.circom";

// HASH: 0 = poseidon, 1 = mimc-sponge, 2 = gmimc, 3 = poseidon2, 4 = neptune.
template Node(HASH) {
    signal input l;
    signal input r;
    signal output out;
    if (HASH == 0) {
        component p = Poseidon(2);
        p.inputs[0] <== l;
        p.inputs[1] <== r;
        out <== p.out;
    } else if (HASH == 1) {
        component m = MiMCSponge(2, 220, 1);
        m.ins[0] <== l;
        m.ins[1] <== r;
        m.k <== 0;
        out <== m.outs[0];
    } else if (HASH == 2) {
        component g = ZkbenchGmimcNode();
        g.l <== l;
        g.r <== r;
        out <== g.out;
    } else if (HASH == 3) {
        component q = ZkbenchPoseidon2Node();
        q.l <== l;
        q.r <== r;
        out <== q.out;
    } else {
        component n = ZkbenchNeptuneNode();
        n.l <== l;
        n.r <== r;
        out <== n.out;
    }
}
