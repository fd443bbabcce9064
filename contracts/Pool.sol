// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity ^0.8.28;

/// @title zkbench private pool (seed 003, issue 12; protocol and trust model in docs/pool.md)
/// @notice One denomination of ether. Users deposit a note commitment; the sequencer commits
/// full batches of 2^slotDepth deposits as one slot of the era tree with one batch proof (the
/// era insertion is proven in the circuit: no hashing of the tree on chain); users withdraw
/// with a note-spend proof against any committed era root.
/// @dev Verifiers are zkbench's generated Groth16Verifier contracts (snarkjs's verifyProof ABI).
contract Pool {
    /// @notice The BN254 scalar field modulus r: every public input must be below it.
    uint256 internal constant FIELD_SIZE =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;

    /// @notice Verifier of the note-spend statement (public: root, nullifierHash, extDataHash).
    address public immutable withdrawVerifier;
    /// @notice Verifier of the slot-insert statement (public: oldRoot, newRoot, slotIndex, leaves).
    address public immutable batchVerifier;
    /// @notice Selector of the batch verifier's verifyProof(uint[2],uint[2][2],uint[2],uint[3+B]).
    bytes4 public immutable batchSelector;
    /// @notice The amount of every deposit and withdrawal, in wei.
    uint256 public immutable denomination;
    /// @notice Deposits per batch, B = 2^slotDepth.
    uint256 public immutable batchSize;
    /// @notice Number of slots of the era tree, 2^eraDepth.
    uint256 public immutable eraCapacity;
    /// @notice The empty leaf E: the leaf of an excluded (blocklisted) deposit.
    uint256 public immutable emptyLeaf;
    /// @notice The only account that may commit batches.
    address public immutable sequencer;
    /// @notice Seconds without progress after which depositors of uncommitted batches may
    /// reclaim their deposits (liveness: a stalled sequencer or a batch that never fills).
    uint256 public immutable livenessTimeout;

    /// @notice The current era root.
    uint256 public currentRoot;
    /// @notice Every era root ever committed (the tree is append-only).
    mapping(uint256 => bool) public knownRoots;
    /// @notice Spent nullifier hashes.
    mapping(uint256 => bool) public nullifierSpent;
    /// @notice Per batch, keccak chain of (commitment, depositor) over its deposits in order.
    mapping(uint256 => bytes32) public batchAccumulator;
    /// @notice Ether held for depositors whose deposits were excluded (blocklist policy).
    mapping(address => uint256) public escrow;
    /// @notice Sum of `escrow`.
    uint256 public totalEscrow;
    /// @notice The batch deposits go to now.
    uint64 public openBatch;
    /// @notice Deposits in the open batch so far.
    uint64 public openCount;
    /// @notice Committed slots (= the next batch to commit).
    uint64 public nextSlot;
    /// @notice Time of the last progress: the last commit, or the deposit that made an empty
    /// queue non-empty (same storage slot as the three counters above).
    uint64 public lastProgress;
    /// @notice Per uncommitted batch, bit i set: deposit i was reclaimed (paid back).
    mapping(uint256 => uint256) public reclaimed;

    bool private transient locked;

    /// @notice A deposit entered batch `batch` at position `position`.
    event Deposit(uint256 indexed commitment, address indexed depositor, uint256 batch, uint256 position);
    /// @notice Batch `slot` was committed; the era root is now `root`.
    event Commit(uint256 indexed slot, uint256 root);
    /// @notice A deposit of batch `slot` was excluded; its depositor's escrow was credited
    /// (unless the deposit had been reclaimed: then it was already paid back).
    event Excluded(uint256 indexed slot, uint256 position, address indexed depositor, uint256 commitment);
    /// @notice A note was spent.
    event Withdrawal(address to, uint256 nullifierHash, address indexed relayer, uint256 fee);
    /// @notice Escrowed ether was paid back.
    event EscrowClaimed(address indexed depositor, uint256 amount);
    /// @notice A stalled deposit was paid back to its depositor; the commit of its batch must
    /// exclude it.
    event Reclaimed(uint256 indexed batch, uint256 position, address indexed depositor, uint256 commitment);

    error Reentrancy();
    error WrongDenomination();
    error FieldElementTooLarge();
    error EmptyLeafCommitment();
    error NotSequencer();
    error BatchNotFull();
    error EraFull();
    error WrongBatchLength();
    error BatchMismatch();
    error BadMask();
    error InvalidProof();
    error UnknownRoot();
    error NullifierAlreadySpent();
    error FeeTooHigh();
    error RefundNotSupported();
    error ZeroRecipient();
    error NothingToClaim();
    error TransferFailed();
    error NotStalled();
    error BatchNotPending();
    error NotDepositor();
    error AlreadyReclaimed();
    error ReclaimedNotExcluded();

    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }

    constructor(
        address _withdrawVerifier,
        address _batchVerifier,
        bytes4 _batchSelector,
        uint256 _denomination,
        uint256 _batchSize,
        uint256 _eraCapacity,
        uint256 _emptyLeaf,
        uint256 _initialRoot,
        address _sequencer,
        uint256 _livenessTimeout
    ) {
        withdrawVerifier = _withdrawVerifier;
        batchVerifier = _batchVerifier;
        batchSelector = _batchSelector;
        denomination = _denomination;
        batchSize = _batchSize;
        eraCapacity = _eraCapacity;
        emptyLeaf = _emptyLeaf;
        sequencer = _sequencer;
        livenessTimeout = _livenessTimeout;
        currentRoot = _initialRoot;
        knownRoots[_initialRoot] = true;
    }

    /// @notice Deposits `denomination` wei for `commitment` (a field element, not E).
    function deposit(uint256 commitment) external payable nonReentrant {
        if (msg.value != denomination) revert WrongDenomination();
        if (commitment >= FIELD_SIZE) revert FieldElementTooLarge();
        if (commitment == emptyLeaf) revert EmptyLeafCommitment();
        uint64 batch = openBatch;
        // A deposit that could never be committed would be stuck: refuse it.
        if (batch >= eraCapacity) revert EraFull();
        uint64 position = openCount;
        // The queue was empty: the liveness clock starts now.
        if (position == 0 && nextSlot == batch) lastProgress = uint64(block.timestamp);
        batchAccumulator[batch] = keccak256(abi.encode(batchAccumulator[batch], commitment, msg.sender));
        if (position + 1 == batchSize) {
            openBatch = batch + 1;
            openCount = 0;
        } else {
            openCount = position + 1;
        }
        emit Deposit(commitment, msg.sender, batch, position);
    }

    /// @notice Commits the oldest full batch as slot `nextSlot`.
    /// @param commitments The batch's commitments in deposit order.
    /// @param depositors Their depositors.
    /// @param excludedMask Bit i set: deposit i is excluded (its leaf is E, its depositor's
    /// escrow is credited with the denomination unless the deposit was reclaimed). Every
    /// reclaimed deposit must be excluded.
    function commit(
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256 newRoot,
        uint256[] calldata commitments,
        address[] calldata depositors,
        uint256 excludedMask
    ) external nonReentrant {
        if (msg.sender != sequencer) revert NotSequencer();
        uint64 slot = nextSlot;
        if (slot >= openBatch) revert BatchNotFull();
        if (slot >= eraCapacity) revert EraFull();
        if (newRoot >= FIELD_SIZE) revert FieldElementTooLarge();
        (uint256[] memory inputs, uint256 excluded) =
            _batchInputs(slot, newRoot, commitments, depositors, excludedMask);
        if (!_verify(batchVerifier, batchSelector, pA, pB, pC, inputs)) revert InvalidProof();
        totalEscrow += excluded;
        delete batchAccumulator[slot];
        currentRoot = newRoot;
        knownRoots[newRoot] = true;
        nextSlot = slot + 1;
        lastProgress = uint64(block.timestamp);
        emit Commit(slot, newRoot);
    }

    /// @notice Spends a note: pays `denomination - fee` to `recipient` and `fee` to `relayer`.
    /// The proof binds keccak256(abi.encode(recipient, relayer, fee, refund)) mod r.
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
        if (nullifierSpent[nullifierHash]) revert NullifierAlreadySpent();
        if (!knownRoots[root]) revert UnknownRoot();
        uint256[] memory inputs = new uint256[](3);
        inputs[0] = root;
        inputs[1] = nullifierHash;
        inputs[2] = uint256(keccak256(abi.encode(recipient, relayer, fee, refund))) % FIELD_SIZE;
        if (!_verify(withdrawVerifier, WITHDRAW_SELECTOR, pA, pB, pC, inputs)) revert InvalidProof();
        nullifierSpent[nullifierHash] = true;
        emit Withdrawal(recipient, nullifierHash, relayer, fee);
        _send(recipient, denomination - fee);
        if (fee > 0) _send(relayer, fee);
    }

    /// @notice Pays the caller's escrow (excluded deposits) back.
    function claimEscrow() external nonReentrant {
        uint256 amount = escrow[msg.sender];
        if (amount == 0) revert NothingToClaim();
        escrow[msg.sender] = 0;
        totalEscrow -= amount;
        emit EscrowClaimed(msg.sender, amount);
        _send(payable(msg.sender), amount);
    }

    /// @notice Whether the pool is stalled: deposits are waiting and nothing progressed for
    /// more than `livenessTimeout` seconds.
    function stalled() public view returns (bool) {
        bool waiting = nextSlot < openBatch || openCount > 0;
        return waiting && block.timestamp - lastProgress > livenessTimeout;
    }

    /// @notice Pays a deposit of an uncommitted batch back to its depositor (the caller) when
    /// the pool is stalled. The commit of that batch must then exclude it.
    /// @param batch An uncommitted batch (`nextSlot <= batch <= openBatch`).
    /// @param commitments The batch's deposits so far, in order (`batchSize` of a full batch,
    /// `openCount` of the open one), as the `Deposit` events tell.
    /// @param depositors Their depositors.
    /// @param position The caller's deposit in the batch.
    function reclaim(
        uint64 batch,
        uint256[] calldata commitments,
        address[] calldata depositors,
        uint256 position
    ) external nonReentrant {
        if (!stalled()) revert NotStalled();
        uint64 open = openBatch;
        if (batch < nextSlot || batch > open) revert BatchNotPending();
        uint256 n = batch == open ? openCount : batchSize;
        if (commitments.length != n || depositors.length != n) revert WrongBatchLength();
        bytes32 acc;
        for (uint256 i = 0; i < n; ++i) {
            acc = keccak256(abi.encode(acc, commitments[i], depositors[i]));
        }
        if (acc != batchAccumulator[batch]) revert BatchMismatch();
        // The bitmap (like the commit's mask) has 256 positions.
        if (position >= n || position >= 256 || depositors[position] != msg.sender) revert NotDepositor();
        uint256 bits = reclaimed[batch];
        uint256 bit = 1 << position;
        if (bits & bit != 0) revert AlreadyReclaimed();
        reclaimed[batch] = bits | bit;
        emit Reclaimed(batch, position, msg.sender, commitments[position]);
        _send(payable(msg.sender), denomination);
    }

    /// @dev The batch proof's public inputs; checks the batch against its accumulator and
    /// that every reclaimed deposit is excluded, and credits the escrow of excluded
    /// depositors not already paid back (rolled back with the transaction if the proof
    /// fails).
    function _batchInputs(
        uint64 slot,
        uint256 newRoot,
        uint256[] calldata commitments,
        address[] calldata depositors,
        uint256 excludedMask
    ) internal returns (uint256[] memory inputs, uint256 excluded) {
        uint256 n = batchSize;
        if (commitments.length != n || depositors.length != n) revert WrongBatchLength();
        if (n < 256 && excludedMask >> n != 0) revert BadMask();
        uint256 back = reclaimed[slot];
        if (back != 0) {
            if (back & ~excludedMask != 0) revert ReclaimedNotExcluded();
            delete reclaimed[slot];
        }
        inputs = new uint256[](3 + n);
        inputs[0] = currentRoot;
        inputs[1] = newRoot;
        inputs[2] = slot;
        bytes32 acc;
        for (uint256 i = 0; i < n; ++i) {
            uint256 c = commitments[i];
            address d = depositors[i];
            acc = keccak256(abi.encode(acc, c, d));
            if ((excludedMask >> i) & 1 == 1) {
                inputs[3 + i] = emptyLeaf;
                if ((back >> i) & 1 == 0) {
                    escrow[d] += denomination;
                    excluded += denomination;
                }
                emit Excluded(slot, i, d, c);
            } else {
                inputs[3 + i] = c;
            }
        }
        if (acc != batchAccumulator[slot]) revert BatchMismatch();
    }

    bytes4 internal constant WITHDRAW_SELECTOR =
        bytes4(keccak256("verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[3])"));

    function _verify(
        address verifier,
        bytes4 selector,
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256[] memory inputs
    ) internal view returns (bool) {
        (bool ok, bytes memory ret) =
            verifier.staticcall(abi.encodePacked(selector, pA, pB[0], pB[1], pC, inputs));
        return ok && ret.length == 32 && abi.decode(ret, (bool));
    }

    function _send(address payable to, uint256 amount) internal {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }
}
