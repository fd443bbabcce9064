//! Every node hasher the registry has (families still being written return
//! an error and are skipped, reported on stderr): sparse, incremental and
//! era/slot trees agree and their paths verify, for arities 2..=16.

use zkbench_hash::HashFamily;
use zkbench_merkle::{EraSlotTree, Fr, IncrementalMerkleTree, SparseMerkleTree};

#[test]
fn trees_agree_for_every_available_family() {
    let mut tested = 0;
    for family in HashFamily::ALL {
        for arity in [2usize, 3, 4, 5, 8, 16] {
            let h = match family.node_hasher(arity, None) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("skipping {family} arity {arity}: {e}");
                    continue;
                }
            };
            assert_eq!(h.arity(), arity, "{family}");
            tested += 1;
            let zero = Fr::from(0u64);
            let mut sp = SparseMerkleTree::with_defaults(h.clone());
            let levels = 3;
            let mut inc = IncrementalMerkleTree::new(h.clone(), levels, zero).unwrap();
            let mut small = SparseMerkleTree::with_height(h.clone(), levels, zero).unwrap();
            let mut es = EraSlotTree::new(h.clone(), 1, levels - 1, zero).unwrap();
            let leaves: Vec<Fr> = (0..arity as u64 * 2)
                .map(|i| Fr::from(i * 31 + 7))
                .collect();
            for (i, l) in leaves.iter().enumerate() {
                let big_index = (i as u64) * 0x9E37_79B9 % (1 << 36);
                sp.insert(big_index, *l).unwrap();
                assert!(sp
                    .path(big_index)
                    .unwrap()
                    .verify(l, &sp.root(), h.as_ref()));
                inc.insert(*l).unwrap();
                small.insert(i as u64, *l).unwrap();
            }
            for slot in leaves.chunks(arity) {
                es.commit_slot(slot).unwrap();
            }
            assert_eq!(inc.root(), small.root(), "{family} A={arity}");
            assert_eq!(es.root(), small.root(), "{family} A={arity}");
            let p = inc.path(arity as u64 + 1).unwrap();
            assert!(p.verify(&leaves[arity + 1], &inc.root(), h.as_ref()));
            assert!(!p.verify(&leaves[arity], &inc.root(), h.as_ref()));
            let q = es.path(1, 1).unwrap();
            assert!(q.verify(&leaves[arity + 1], &es.root(), h.as_ref()));
        }
    }
    eprintln!("tested {tested} (family, arity) pairs");
}
