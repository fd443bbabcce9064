pragma circom 2.0.0;

include "hashers.circom";

// zkbench's note-spend statement (crates/statement, module docs "Note-spend"), binary tree of
// 2^DEPTH leaves, H_2 = Node(HASH) (hashers.circom):
//   private: nullifier n, secret s, siblings, position bits (least significant = level 0);
//   public, in this order: root, nullifier_hash, ext_data_hash;
//   leaf = H_2(n, s); nullifier_hash = H_2(n, DOMAIN_NULLIFIER); s != DOMAIN_NULLIFIER
//   ((s - D)·inv = 1); the path from leaf to root; ext_data_hash bound by
//   ext_data_hash · ext_data_hash = sq (as Tornado Cash does).
// root and nullifier_hash are circuit outputs: snarkjs lists outputs before public inputs, so
// the public signals are [root, nullifier_hash, ext_data_hash], zkbench's order, and the
// verifier checks them as it checks public inputs (the relation is the same; the witness
// calculator computes them from the private values).
// Position: as membership.circom, the position bit is boolean-constrained and selects
// (left, right) = bit ? (sibling, cur) : (cur, sibling) (Tornado Cash, Semaphore); zkbench's own
// circuit places `cur` among the children with the membership product and does not bind the
// position. Both prove "the root is the hash path of the note commitment".
template Spend(DEPTH, HASH) {
    // DOMAIN_NULLIFIER: the big-endian integer of the ASCII bytes "zkbench/nullifier"
    // (0x7a6b62656e63682f6e756c6c6966696572), crates/statement's domain_nullifier().
    var D = 41657187062264847767674176287947363018098;

    signal input nullifier;
    signal input secret;
    signal input siblings[DEPTH];
    signal input bits[DEPTH];
    signal input ext_data_hash;
    signal output root;
    signal output nullifier_hash;

    component commit = Node(HASH);
    commit.l <== nullifier;
    commit.r <== secret;

    component nh = Node(HASH);
    nh.l <== nullifier;
    nh.r <== D;
    nullifier_hash <== nh.out;

    // s != D: (s - D)·inv = 1
    signal inv;
    inv <-- 1 / (secret - D);
    (secret - D) * inv === 1;

    signal cur[DEPTH + 1];
    signal left[DEPTH];
    component node[DEPTH];
    cur[0] <== commit.out;
    for (var i = 0; i < DEPTH; i++) {
        bits[i] * (1 - bits[i]) === 0;
        left[i] <== cur[i] + bits[i] * (siblings[i] - cur[i]);
        node[i] = Node(HASH);
        node[i].l <== left[i];
        node[i].r <== cur[i] + siblings[i] - left[i];
        cur[i + 1] <== node[i].out;
    }
    root <== cur[DEPTH];

    // ext_data_hash bound to the proof
    signal sq;
    sq <== ext_data_hash * ext_data_hash;
}
