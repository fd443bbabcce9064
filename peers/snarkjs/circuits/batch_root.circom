pragma circom 2.0.0;

include "hashers.circom";

// zkbench's batch-root statement (seed 003's sequencer deposit proof): a full binary tree
// of 2^DEPTH leaves; public inputs: the root, then the leaves in order. DEPTH = 0 is a
// single leaf that is the root.
template BatchRoot(DEPTH, HASH) {
    var N = 1 << DEPTH;
    signal input root;
    signal input leaves[N];

    signal level[2 * N - 1];
    for (var i = 0; i < N; i++) {
        level[i] <== leaves[i];
    }
    component node[N > 1 ? N - 1 : 1];
    var next = N;
    var start = 0;
    for (var width = N; width > 1; width = width \ 2) {
        for (var j = 0; j < width \ 2; j++) {
            node[next - N] = Node(HASH);
            node[next - N].l <== level[start + 2 * j];
            node[next - N].r <== level[start + 2 * j + 1];
            level[next] <== node[next - N].out;
            next++;
        }
        start += width;
    }
    root === level[2 * N - 2];
}
