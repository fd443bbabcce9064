pragma circom 2.0.0;

include "hashers.circom";

// zkbench's membership statement (crates/statement), binary tree of 2^DEPTH leaves:
// public root; private leaf, siblings and position bits (least significant = level 0).
// Per level the position bit orders (cur, sibling) into (left, right), and
// node = H(left, right). zkbench's own circuit places `cur` among the children with the
// membership product (its position is not bound); here the position bit is boolean-
// constrained and selects, as Tornado Cash and Semaphore do. Both prove the same relation:
// "the root is the hash path of some leaf".
template Membership(DEPTH, HASH) {
    signal input root;
    signal input leaf;
    signal input siblings[DEPTH];
    signal input bits[DEPTH];

    signal cur[DEPTH + 1];
    signal left[DEPTH];
    component node[DEPTH];
    cur[0] <== leaf;
    for (var i = 0; i < DEPTH; i++) {
        bits[i] * (1 - bits[i]) === 0;
        left[i] <== cur[i] + bits[i] * (siblings[i] - cur[i]);
        node[i] = Node(HASH);
        node[i].l <== left[i];
        node[i].r <== cur[i] + siblings[i] - left[i];
        cur[i + 1] <== node[i].out;
    }
    root === cur[DEPTH];
}
