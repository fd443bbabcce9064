// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity ^0.8.28;

/// @title The Tornado Cash baseline of seed 003's table 2, measured in zkbench's harness
/// @notice The classic design (Tornado Cash's ETHTornado over MerkleTreeWithHistory, written
/// anew for zkbench, docs/pool.md): every deposit inserts its commitment into an on-chain binary
/// Merkle tree hashed with MiMCSponge (2 hasher calls per level, `hashLeftRight`), keeping the
/// last 30 roots; a withdrawal proves membership of the note in a known root.
/// @dev Differences from tornado-core, each stated in docs/pool.md: the withdraw proof is
/// zkbench's note-spend statement over MiMCSponge with 3 public inputs (root, nullifierHash,
/// extDataHash = keccak256(abi.encode(recipient, relayer, fee, refund)) mod r, as in Pool.sol)
/// where tornado-core has 6 (root, nullifierHash, recipient, relayer, fee, refund); custom errors;
/// the reentrancy guard in transient storage (as in Pool.sol); the first known root is the true
/// empty root `zeros(levels)`. The hasher is circomlibjs's generated MiMCSponge contract
/// (`scripts/circomlibjs/mimcsponge.mjs`), the generator Tornado Cash deployed.

/// @notice circomlibjs's MiMCSponge contract: one Feistel permutation of (xL, xR) with key k.
interface IMiMCSponge {
    function MiMCSponge(uint256 xL, uint256 xR, uint256 k) external pure returns (uint256, uint256);
}

/// @notice An append-only binary Merkle tree of `levels` levels with the last 30 roots.
abstract contract MerkleTreeWithHistory {
    /// @notice The BN254 scalar field modulus r.
    uint256 internal constant FIELD_SIZE =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;
    /// @notice Number of recent roots a withdrawal may refer to.
    uint32 public constant ROOT_HISTORY_SIZE = 30;

    /// @notice The MiMCSponge hasher contract.
    IMiMCSponge public immutable hasher;
    /// @notice Depth of the tree (2^levels leaves).
    uint32 public immutable levels;

    /// @notice Per level, the last left child on the path of the next leaf.
    mapping(uint256 => uint256) public filledSubtrees;
    /// @notice Ring of the last ROOT_HISTORY_SIZE roots.
    mapping(uint256 => uint256) public roots;
    /// @notice Index of the current root in `roots`.
    uint32 public currentRootIndex;
    /// @notice Index of the next leaf.
    uint32 public nextIndex;

    error FieldElementTooLarge();
    error TreeFull();
    error BadLevels();

    constructor(uint32 _levels, IMiMCSponge _hasher) {
        if (_levels == 0 || _levels > 31) revert BadLevels();
        levels = _levels;
        hasher = _hasher;
        for (uint32 i = 0; i < _levels; i++) {
            filledSubtrees[i] = zeros(i);
        }
        roots[0] = zeros(_levels);
    }

    /// @notice Tornado's node hash: MiMCSponge absorbing left then right (key 0), output R.
    function hashLeftRight(uint256 left, uint256 right) public view returns (uint256) {
        if (left >= FIELD_SIZE || right >= FIELD_SIZE) revert FieldElementTooLarge();
        (uint256 r, uint256 c) = hasher.MiMCSponge(left, 0, 0);
        r = addmod(r, right, FIELD_SIZE);
        (r,) = hasher.MiMCSponge(r, c, 0);
        return r;
    }

    /// @dev Appends `leaf`, hashing one node per level; returns its index.
    function _insert(uint256 leaf) internal returns (uint32 index) {
        uint32 n = nextIndex;
        if (n == uint32(1) << levels) revert TreeFull();
        uint32 pos = n;
        uint256 node = leaf;
        for (uint32 i = 0; i < levels; i++) {
            uint256 left;
            uint256 right;
            if (pos & 1 == 0) {
                left = node;
                right = zeros(i);
                filledSubtrees[i] = node;
            } else {
                left = filledSubtrees[i];
                right = node;
            }
            node = hashLeftRight(left, right);
            pos >>= 1;
        }
        uint32 r = (currentRootIndex + 1) % ROOT_HISTORY_SIZE;
        currentRootIndex = r;
        roots[r] = node;
        nextIndex = n + 1;
        return n;
    }

    /// @notice Whether `root` is one of the last ROOT_HISTORY_SIZE roots (never 0).
    function isKnownRoot(uint256 root) public view returns (bool) {
        if (root == 0) return false;
        uint32 start = currentRootIndex;
        uint32 i = start;
        do {
            if (roots[i] == root) return true;
            if (i == 0) i = ROOT_HISTORY_SIZE;
            i--;
        } while (i != start);
        return false;
    }

    /// @notice The current root.
    function getLastRoot() public view returns (uint256) {
        return roots[currentRootIndex];
    }

    /// @notice The root of an empty subtree of level `i`: zeros(0) = keccak256("tornado") mod r,
    /// zeros(i + 1) = hashLeftRight(zeros(i), zeros(i)) (checked against zkbench's native
    /// MiMCSponge in crates/pool/tests/tornado.rs).
    function zeros(uint256 i) public pure returns (uint256) {
        if (i == 0) return 0x2fe54c60d3acabf3343a35b6eba15db4821b340f76e741e2249685ed4899af6c;
        if (i == 1) return 0x256a6135777eee2fd26f54b8b7037a25439d5235caee224154186d2b8a52e31d;
        if (i == 2) return 0x1151949895e82ab19924de92c40a3d6f7bcb60d92b00504b8199613683f0c200;
        if (i == 3) return 0x20121ee811489ff8d61f09fb89e313f14959a0f28bb428a20dba6b0b068b3bdb;
        if (i == 4) return 0x0a89ca6ffa14cc462cfedb842c30ed221a50a3d6bf022a6a57dc82ab24c157c9;
        if (i == 5) return 0x24ca05c2b5cd42e890d6be94c68d0689f4f21c9cec9c0f13fe41d566dfb54959;
        if (i == 6) return 0x1ccb97c932565a92c60156bdba2d08f3bf1377464e025cee765679e604a7315c;
        if (i == 7) return 0x19156fbd7d1a8bf5cba8909367de1b624534ebab4f0f79e003bccdd1b182bdb4;
        if (i == 8) return 0x261af8c1f0912e465744641409f622d466c3920ac6e5ff37e36604cb11dfff80;
        if (i == 9) return 0x0058459724ff6ca5a1652fcbc3e82b93895cf08e975b19beab3f54c217d1c007;
        if (i == 10) return 0x1f04ef20dee48d39984d8eabe768a70eafa6310ad20849d4573c3c40c2ad1e30;
        if (i == 11) return 0x1bea3dec5dab51567ce7e200a30f7ba6d4276aeaa53e2686f962a46c66d511e5;
        if (i == 12) return 0x0ee0f941e2da4b9e31c3ca97a40d8fa9ce68d97c084177071b3cb46cd3372f0f;
        if (i == 13) return 0x1ca9503e8935884501bbaf20be14eb4c46b89772c97b96e3b2ebf3a36a948bbd;
        if (i == 14) return 0x133a80e30697cd55d8f7d4b0965b7be24057ba5dc3da898ee2187232446cb108;
        if (i == 15) return 0x13e6d8fc88839ed76e182c2a779af5b2c0da9dd18c90427a644f7e148a6253b6;
        if (i == 16) return 0x1eb16b057a477f4bc8f572ea6bee39561098f78f15bfb3699dcbb7bd8db61854;
        if (i == 17) return 0x0da2cb16a1ceaabf1c16b838f7a9e3f2a3a3088d9e0a6debaa748114620696ea;
        if (i == 18) return 0x24a3b3d822420b14b5d8cb6c28a574f01e98ea9e940551d2ebd75cee12649f9d;
        if (i == 19) return 0x198622acbd783d1b0d9064105b1fc8e4d8889de95c4c519b3f635809fe6afc05;
        if (i == 20) return 0x29d7ed391256ccc3ea596c86e933b89ff339d25ea8ddced975ae2fe30b5296d4;
        if (i == 21) return 0x19be59f2f0413ce78c0c3703a3a5451b1d7f39629fa33abd11548a76065b2967;
        if (i == 22) return 0x1ff3f61797e538b70e619310d33f2a063e7eb59104e112e95738da1254dc3453;
        if (i == 23) return 0x10c16ae9959cf8358980d9dd9616e48228737310a10e2b6b731c1a548f036c48;
        if (i == 24) return 0x0ba433a63174a90ac20992e75e3095496812b652685b5e1a2eae0b1bf4e8fcd1;
        if (i == 25) return 0x019ddb9df2bc98d987d0dfeca9d2b643deafab8f7036562e627c3667266a044c;
        if (i == 26) return 0x2d3c88b23175c5a5565db928414c66d1912b11acf974b2e644caaac04739ce99;
        if (i == 27) return 0x2eab55f6ae4e66e32c5189eed5c470840863445760f5ed7e7b69b2a62600f354;
        if (i == 28) return 0x002df37a2642621802383cf952bf4dd1f32e05433beeb1fd41031fb7eace979d;
        if (i == 29) return 0x104aeb41435db66c3e62feccc1d6f5d98d0a0ed75d1374db457cf462e3a1f427;
        if (i == 30) return 0x1f3c6fd858e9a7d4b0d1f38e256a09d81d5a5e3c963987e2d4b814cfab7c6ebb;
        if (i == 31) return 0x2c7a07d20dff79d01fecedc1134284a8d08436606c93693b67e333f671bf69cc;
        revert BadLevels();
    }
}

/// @notice The pool: deposits of `denomination` wei insert on chain; withdrawals verify a proof.
contract TornadoBaseline is MerkleTreeWithHistory {
    /// @notice zkbench's Groth16 verifier of the note-spend statement (3 public inputs).
    address public immutable verifier;
    /// @notice The amount of every deposit and withdrawal, in wei.
    uint256 public immutable denomination;
    /// @notice Spent nullifier hashes.
    mapping(uint256 => bool) public nullifierHashes;
    /// @notice Deposited commitments (a commitment can be deposited once).
    mapping(uint256 => bool) public commitments;

    bool private transient locked;

    /// @notice A commitment was inserted at `leafIndex`.
    event Deposit(uint256 indexed commitment, uint32 leafIndex, uint256 timestamp);
    /// @notice A note was spent.
    event Withdrawal(address to, uint256 nullifierHash, address indexed relayer, uint256 fee);

    error Reentrancy();
    error WrongDenomination();
    error CommitmentExists();
    error InvalidProof();
    error UnknownRoot();
    error NullifierAlreadySpent();
    error FeeTooHigh();
    error RefundNotSupported();
    error ZeroRecipient();
    error ZeroDenomination();
    error TransferFailed();

    bytes4 internal constant VERIFY_SELECTOR =
        bytes4(keccak256("verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[3])"));

    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }

    constructor(address _verifier, IMiMCSponge _hasher, uint256 _denomination, uint32 _levels)
        MerkleTreeWithHistory(_levels, _hasher)
    {
        if (_denomination == 0) revert ZeroDenomination();
        verifier = _verifier;
        denomination = _denomination;
    }

    /// @notice Deposits `denomination` wei for `commitment` (a field element, new).
    function deposit(uint256 commitment) external payable nonReentrant {
        if (msg.value != denomination) revert WrongDenomination();
        if (commitment >= FIELD_SIZE) revert FieldElementTooLarge();
        if (commitments[commitment]) revert CommitmentExists();
        uint32 index = _insert(commitment);
        commitments[commitment] = true;
        emit Deposit(commitment, index, block.timestamp);
    }

    /// @notice Spends a note: pays `denomination - fee` to `recipient` and `fee` to `relayer`.
    function withdraw(
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256 root,
        uint256 nullifierHash,
        address payable recipient,
        address payable relayer,
        uint256 fee,
        uint256 refund
    ) external payable nonReentrant {
        if (fee > denomination) revert FeeTooHigh();
        if (refund != 0 || msg.value != 0) revert RefundNotSupported();
        if (recipient == address(0)) revert ZeroRecipient();
        if (root >= FIELD_SIZE || nullifierHash >= FIELD_SIZE) revert FieldElementTooLarge();
        if (nullifierHashes[nullifierHash]) revert NullifierAlreadySpent();
        if (!isKnownRoot(root)) revert UnknownRoot();
        uint256 ext = uint256(keccak256(abi.encode(recipient, relayer, fee, refund))) % FIELD_SIZE;
        (bool ok, bytes memory ret) = verifier.staticcall(
            abi.encodePacked(VERIFY_SELECTOR, pA, pB[0], pB[1], pC, root, nullifierHash, ext)
        );
        if (!(ok && ret.length == 32 && abi.decode(ret, (bool)))) revert InvalidProof();
        nullifierHashes[nullifierHash] = true;
        emit Withdrawal(recipient, nullifierHash, relayer, fee);
        _send(recipient, denomination - fee);
        if (fee > 0) _send(relayer, fee);
    }

    function _send(address payable to, uint256 amount) internal {
        (bool sent,) = to.call{value: amount}("");
        if (!sent) revert TransferFailed();
    }
}
