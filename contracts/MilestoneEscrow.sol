// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// The EIP-3009 entry point of USDC (FiatToken v2.2) used for gasless funding: the `bytes`
/// overload, which also accepts ERC-1271 (smart-wallet) signatures.
interface IERC3009Receive {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

/// @title MilestoneEscrow
/// @notice Holds a brand's USDC for a deal split into milestones. The deal's evaluator (the
/// verification service) releases each milestone once: the payout to the creator and the rest
/// back to the brand. Before a creator is assigned the brand may cancel; after the deadline plus
/// a grace period anyone may return a still-locked milestone to the brand, so the service can
/// never keep funds locked. Money leaves only to the deal's creator or the deal's refund
/// recipient (the brand's): there is no owner, no admin, no sweep and no upgrade path.
///
/// Deals are keyed by their funder: `dealKey = keccak256(abi.encode(funder, dealRef))`, where
/// `dealRef` is the caller's own reference for the deal (the app's deal id) and the funder is
/// msg.sender of fund() or the signer (`from`) of fundWithAuthorization(). Nobody but the funder
/// can create a deal under that key, so a third party who learns a deal's ref (it is visible in
/// the brand's pending funding transaction) can neither block the brand's funding nor pose as
/// its brand: their funding lands under their own key. Every other function takes the key.
///
/// Each deal has a refund recipient: everything that is not released to the creator (a
/// milestone's remainder, a cancel, an expired milestone) goes there. It is the funder, unless
/// the funder named another address with fundWithRefundAddress (a deal's DepositForwarder names
/// the brand's refund address, e.g. an exchange deposit address).
contract MilestoneEscrow is EIP712, ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum MilestoneState {
        Locked,
        Released,
        Refunded
    }

    struct Milestone {
        uint256 amount;
        MilestoneState state;
    }

    /// One milestone release of releaseBatch: what release() takes.
    struct ReleaseItem {
        bytes32 dealKey;
        uint256 index;
        uint256 payout;
        bytes32 verdictHash;
    }

    struct Deal {
        address brand; // the funder, whose key the deal has; zero: the deal does not exist
        uint64 deadline;
        bool cancelled;
        address evaluator;
        address creator; // zero until assigned
        address refundTo; // where money that is not released goes back
        uint256 funded;
        uint256 released; // paid to the creator
        uint256 refunded; // returned to the brand
        Milestone[] milestones;
    }

    /// After deadline + GRACE_PERIOD only refunds are possible.
    uint256 public constant GRACE_PERIOD = 7 days;
    /// Bounds the loop in cancel() so it always fits in a block.
    uint256 public constant MAX_MILESTONES = 50;
    /// Bounds releaseBatch. A release costs up to about 115k gas inside a batch (another deal
    /// paying a new creator each: test/contracts/escrow-batch-gas.test.ts), so 100 stay under
    /// EIP-7825's cap of 2^24 gas per transaction with the sender's 20 % margin.
    uint256 public constant MAX_BATCH = 100;
    bytes32 public constant RELEASE_TYPEHASH =
        keccak256("Release(bytes32 dealKey,uint256 index,uint256 payout,bytes32 verdictHash,uint256 deadline)");

    IERC20 public immutable usdc;

    /// By deal key (see dealKey): a deal is reachable only under its funder's key.
    mapping(bytes32 => Deal) private _deals;

    /// `brand` is the funder; `dealKey == dealKey(brand, dealRef)`.
    event Funded(
        bytes32 indexed dealKey,
        address indexed brand,
        bytes32 indexed dealRef,
        address evaluator,
        uint64 deadline,
        uint256 total,
        uint256 milestoneCount
    );
    /// Emitted with every Funded: where the deal's unreleased money goes back.
    event RefundRecipientSet(bytes32 indexed dealKey, address indexed refundTo);
    event CreatorAssigned(bytes32 indexed dealKey, address indexed creator);
    event Released(
        bytes32 indexed dealKey,
        uint256 indexed index,
        address indexed creator,
        uint256 payout,
        uint256 refund,
        bytes32 verdictHash
    );
    /// An item of releaseBatch that was not released (nothing of it changed): `reason` is the
    /// revert data release() would have reverted with for it (one of the errors below, e.g.
    /// MilestoneNotLocked for a milestone already released).
    event ReleaseSkipped(bytes32 indexed dealKey, uint256 indexed index, bytes reason);
    event Refunded(bytes32 indexed dealKey, uint256 indexed index, uint256 amount);
    event Cancelled(bytes32 indexed dealKey, uint256 refunded);

    error DealExists(bytes32 dealKey);
    error DealNotFound(bytes32 dealKey);
    error ZeroAddress();
    error InvalidMilestoneCount(uint256 count);
    error ZeroAmount(uint256 index);
    error DeadlineNotInFuture(uint64 deadline);
    error NotEvaluator(address caller);
    error NotBrand(address caller);
    error CreatorAlreadyAssigned(bytes32 dealKey);
    error CreatorNotAssigned(bytes32 dealKey);
    error DealIsCancelled(bytes32 dealKey);
    error InvalidMilestone(bytes32 dealKey, uint256 index);
    error MilestoneNotLocked(bytes32 dealKey, uint256 index, MilestoneState state);
    error PayoutExceedsAmount(uint256 payout, uint256 amount);
    error ReleaseWindowClosed(uint256 closedAt);
    error ZeroVerdictHash();
    error SignatureExpired(uint256 sigDeadline);
    error InvalidSignature();
    error RefundNotYetAvailable(uint256 availableAfter);
    error InvalidBatchSize(uint256 count);
    error NotSelf(address caller);
    error BatchItemFailed(uint256 position);

    constructor(IERC20 usdc_) EIP712("MilestoneEscrow", "1") {
        if (address(usdc_) == address(0)) revert ZeroAddress();
        usdc = usdc_;
    }

    // ---- funding ---------------------------------------------------------------------------

    /// Funds the deal `dealRef` of msg.sender (the brand), who must have approved the total. The
    /// deal is stored under dealKey(msg.sender, dealRef).
    function fund(bytes32 dealRef, address evaluator, uint64 deadline, uint256[] calldata amounts)
        external
        nonReentrant
    {
        uint256 total = _record(dealRef, msg.sender, evaluator, deadline, amounts);
        _setRefundRecipient(dealRef, msg.sender, msg.sender);
        usdc.safeTransferFrom(msg.sender, address(this), total);
    }

    /// Like fund, naming where the deal's unreleased money goes back (`refundTo`) instead of
    /// msg.sender. The deal is still keyed and cancellable by msg.sender, the funder.
    function fundWithRefundAddress(
        bytes32 dealRef,
        address evaluator,
        uint64 deadline,
        uint256[] calldata amounts,
        address refundTo
    ) external nonReentrant {
        if (refundTo == address(0)) revert ZeroAddress();
        uint256 total = _record(dealRef, msg.sender, evaluator, deadline, amounts);
        _setRefundRecipient(dealRef, msg.sender, refundTo);
        usdc.safeTransferFrom(msg.sender, address(this), total);
    }

    /// Gasless funding: anyone submits the brand's EIP-3009 ReceiveWithAuthorization. The deal is
    /// stored under dealKey(brand, dealRef): the signer's key, never the submitter's. Its nonce
    /// is derived here from the deal's ref and terms, so a submitter who changes the ref,
    /// evaluator, deadline or split makes the token reject the signature.
    function fundWithAuthorization(
        bytes32 dealRef,
        address brand,
        address evaluator,
        uint64 deadline,
        uint256[] calldata amounts,
        uint256 validAfter,
        uint256 validBefore,
        bytes calldata signature
    ) external nonReentrant {
        if (brand == address(0)) revert ZeroAddress();
        uint256 total = _record(dealRef, brand, evaluator, deadline, amounts);
        _setRefundRecipient(dealRef, brand, brand);
        bytes32 nonce = fundingNonce(dealRef, brand, evaluator, deadline, amounts);
        // receiveWithAuthorization (not transfer…) because only the payee may submit it, so
        // nobody can spend the authorization outside this call.
        IERC3009Receive(address(usdc)).receiveWithAuthorization(
            brand, address(this), total, validAfter, validBefore, nonce, signature
        );
    }

    /// The EIP-3009 nonce a brand signs to fund its deal `dealRef` with these terms through
    /// fundWithAuthorization. Binds chain and contract too, so it cannot be used elsewhere; it
    /// binds the brand (the signer, whose key the deal gets) together with the ref.
    function fundingNonce(
        bytes32 dealRef,
        address brand,
        address evaluator,
        uint64 deadline,
        uint256[] calldata amounts
    ) public view returns (bytes32) {
        return keccak256(
            abi.encode(
                block.chainid, address(this), dealRef, brand, evaluator, deadline, keccak256(abi.encodePacked(amounts))
            )
        );
    }

    /// The key under which `funder`'s deal `dealRef` is stored (and which every other function
    /// and every event uses).
    function dealKey(address funder, bytes32 dealRef) public pure returns (bytes32) {
        return keccak256(abi.encode(funder, dealRef));
    }

    // ---- assignment ------------------------------------------------------------------------

    /// Records the creator who took the deal; from then on the brand can no longer cancel.
    function assignCreator(bytes32 key, address creator) external nonReentrant {
        Deal storage d = _existing(key);
        if (msg.sender != d.evaluator) revert NotEvaluator(msg.sender);
        if (d.cancelled) revert DealIsCancelled(key);
        if (d.creator != address(0)) revert CreatorAlreadyAssigned(key);
        if (creator == address(0)) revert ZeroAddress();
        d.creator = creator;
        emit CreatorAssigned(key, creator);
    }

    // ---- release ---------------------------------------------------------------------------

    /// Settles milestone `index`: `payout` to the creator, the rest of its amount to the brand.
    function release(bytes32 key, uint256 index, uint256 payout, bytes32 verdictHash) external nonReentrant {
        Deal storage d = _existing(key);
        if (msg.sender != d.evaluator) revert NotEvaluator(msg.sender);
        _release(key, d, index, payout, verdictHash);
    }

    /// Like release, submitted by anyone with the evaluator's EIP-712 signature. A signature can
    /// be used at most once in effect: the milestone leaves Locked on the first use.
    function releaseWithSig(
        bytes32 key,
        uint256 index,
        uint256 payout,
        bytes32 verdictHash,
        uint256 sigDeadline,
        bytes calldata signature
    ) external nonReentrant {
        Deal storage d = _existing(key);
        if (block.timestamp > sigDeadline) revert SignatureExpired(sigDeadline);
        bytes32 digest =
            _hashTypedDataV4(keccak256(abi.encode(RELEASE_TYPEHASH, key, index, payout, verdictHash, sigDeadline)));
        // SignatureChecker: an evaluator may also be a contract wallet (ERC-1271).
        if (!SignatureChecker.isValidSignatureNow(d.evaluator, digest, signature)) revert InvalidSignature();
        _release(key, d, index, payout, verdictHash);
    }

    /// Several releases in one transaction, by the evaluator of each item's deal (the service
    /// settles many milestones, of many deals, with one key). Each item is released exactly as
    /// release() would release it, or skipped: an item release() would refuse (already
    /// released, refunded, not assigned, payout above the amount, window closed, another
    /// evaluator's deal…) emits ReleaseSkipped with the refusal and changes nothing, and the
    /// other items are still released. Returns how many were released.
    ///
    /// Why a batch entry point rather than a multicall over releaseWithSig: a multicall
    /// reverts as a whole when one call does (or needs a try-per-call wrapper contract), and
    /// every item would carry and check a signature (about 25k gas more per item). Here each
    /// item runs in its own call frame (releaseBatchItem, callable only by the escrow itself),
    /// so its state change and its two transfers revert together when any of them fails — a
    /// token transfer refused for one recipient skips that item only — while this function
    /// holds the reentrancy lock for the whole batch. An item that reverts with no reason at
    /// all (out of gas: the batch was given too little) reverts the whole batch instead of
    /// being skipped, so that gas can never turn a payable item into a skipped one; the sender
    /// then splits the batch and sends it again. A milestone leaves Locked on its first
    /// release, so an item repeated in a batch, or a batch sent twice, pays once.
    function releaseBatch(ReleaseItem[] calldata items) external nonReentrant returns (uint256 released) {
        uint256 count = items.length;
        if (count == 0 || count > MAX_BATCH) revert InvalidBatchSize(count);
        for (uint256 i; i < count; ++i) {
            ReleaseItem calldata item = items[i];
            try this.releaseBatchItem(msg.sender, item) {
                ++released;
            } catch (bytes memory reason) {
                if (reason.length < 4) revert BatchItemFailed(i);
                emit ReleaseSkipped(item.dealKey, item.index, reason);
            }
        }
    }

    /// One item of releaseBatch, sent by `caller`: only the escrow itself may call it (from
    /// releaseBatch, which holds the reentrancy lock meanwhile), so nobody can pass another
    /// caller's address. Reverts as release() would.
    function releaseBatchItem(address caller, ReleaseItem calldata item) external {
        if (msg.sender != address(this)) revert NotSelf(msg.sender);
        Deal storage d = _existing(item.dealKey);
        if (caller != d.evaluator) revert NotEvaluator(caller);
        _release(item.dealKey, d, item.index, item.payout, item.verdictHash);
    }

    // ---- refunds ---------------------------------------------------------------------------

    /// The brand withdraws a deal nobody has taken yet: every locked milestone comes back.
    function cancel(bytes32 key) external nonReentrant {
        Deal storage d = _existing(key);
        if (msg.sender != d.brand) revert NotBrand(msg.sender);
        if (d.cancelled) revert DealIsCancelled(key);
        if (d.creator != address(0)) revert CreatorAlreadyAssigned(key);

        d.cancelled = true;
        uint256 total;
        uint256 count = d.milestones.length;
        for (uint256 i; i < count; ++i) {
            Milestone storage m = d.milestones[i];
            // Milestones already refunded by refundExpired are skipped.
            if (m.state != MilestoneState.Locked) continue;
            m.state = MilestoneState.Refunded;
            total += m.amount;
            emit Refunded(key, i, m.amount);
        }
        d.refunded += total;
        emit Cancelled(key, total);
        if (total > 0) usdc.safeTransfer(_refundTo(d), total);
    }

    /// After deadline + GRACE_PERIOD anyone may return a locked milestone to the brand: the money
    /// can only go there, so no permission is needed, and the service cannot block it.
    function refundExpired(bytes32 key, uint256 index) external nonReentrant {
        Deal storage d = _existing(key);
        Milestone storage m = _milestone(key, d, index);
        if (m.state != MilestoneState.Locked) revert MilestoneNotLocked(key, index, m.state);
        uint256 availableAfter = uint256(d.deadline) + GRACE_PERIOD;
        if (block.timestamp <= availableAfter) revert RefundNotYetAvailable(availableAfter);

        m.state = MilestoneState.Refunded;
        d.refunded += m.amount;
        emit Refunded(key, index, m.amount);
        usdc.safeTransfer(_refundTo(d), m.amount);
    }

    // ---- views -----------------------------------------------------------------------------

    /// All zero for an unknown deal (brand == address(0)).
    function getDeal(bytes32 key)
        external
        view
        returns (
            address brand,
            address evaluator,
            address creator,
            uint64 deadline,
            bool cancelled,
            uint256 funded,
            uint256 released,
            uint256 refunded,
            uint256 locked,
            uint256 milestoneCount
        )
    {
        Deal storage d = _deals[key];
        return (
            d.brand,
            d.evaluator,
            d.creator,
            d.deadline,
            d.cancelled,
            d.funded,
            d.released,
            d.refunded,
            d.funded - d.released - d.refunded,
            d.milestones.length
        );
    }

    /// Where the deal's unreleased money goes back (zero for an unknown deal).
    function refundRecipient(bytes32 key) external view returns (address) {
        return _deals[key].refundTo;
    }

    function getMilestone(bytes32 key, uint256 index)
        external
        view
        returns (uint256 amount, MilestoneState state)
    {
        Deal storage d = _existing(key);
        Milestone storage m = _milestone(key, d, index);
        return (m.amount, m.state);
    }

    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    // ---- internals -------------------------------------------------------------------------

    /// Validates and stores `brand`'s new deal `dealRef` under its key (effects before the
    /// caller pulls the funds).
    function _record(bytes32 dealRef, address brand, address evaluator, uint64 deadline, uint256[] calldata amounts)
        private
        returns (uint256 total)
    {
        bytes32 key = dealKey(brand, dealRef);
        Deal storage d = _deals[key];
        if (d.brand != address(0)) revert DealExists(key);
        if (evaluator == address(0)) revert ZeroAddress();
        uint256 count = amounts.length;
        if (count == 0 || count > MAX_MILESTONES) revert InvalidMilestoneCount(count);
        if (deadline <= block.timestamp) revert DeadlineNotInFuture(deadline);

        d.brand = brand;
        d.evaluator = evaluator;
        d.deadline = deadline;
        for (uint256 i; i < count; ++i) {
            uint256 amount = amounts[i];
            if (amount == 0) revert ZeroAmount(i);
            total += amount;
            d.milestones.push(Milestone({amount: amount, state: MilestoneState.Locked}));
        }
        d.funded = total;
        emit Funded(key, brand, dealRef, evaluator, deadline, total, count);
    }

    /// Records where the new deal of `funder` under `dealRef` sends its unreleased money.
    function _setRefundRecipient(bytes32 dealRef, address funder, address refundTo) private {
        bytes32 key = dealKey(funder, dealRef);
        _deals[key].refundTo = refundTo;
        emit RefundRecipientSet(key, refundTo);
    }

    function _release(bytes32 key, Deal storage d, uint256 index, uint256 payout, bytes32 verdictHash) private {
        address creator = d.creator;
        if (creator == address(0)) revert CreatorNotAssigned(key);
        Milestone storage m = _milestone(key, d, index);
        if (m.state != MilestoneState.Locked) revert MilestoneNotLocked(key, index, m.state);
        uint256 amount = m.amount;
        if (payout > amount) revert PayoutExceedsAmount(payout, amount);
        uint256 closedAt = uint256(d.deadline) + GRACE_PERIOD;
        if (block.timestamp > closedAt) revert ReleaseWindowClosed(closedAt);
        if (verdictHash == bytes32(0)) revert ZeroVerdictHash();

        uint256 refund = amount - payout;
        m.state = MilestoneState.Released;
        d.released += payout;
        d.refunded += refund;
        emit Released(key, index, creator, payout, refund, verdictHash);
        if (payout > 0) usdc.safeTransfer(creator, payout);
        if (refund > 0) usdc.safeTransfer(_refundTo(d), refund);
    }

    /// Where money that is not released goes back: the deal's refund recipient (the funder
    /// unless it named another at funding); the key stays the funder's.
    function _refundTo(Deal storage d) private view returns (address) {
        return d.refundTo;
    }

    function _existing(bytes32 key) private view returns (Deal storage d) {
        d = _deals[key];
        if (d.brand == address(0)) revert DealNotFound(key);
    }

    function _milestone(bytes32 key, Deal storage d, uint256 index) private view returns (Milestone storage) {
        if (index >= d.milestones.length) revert InvalidMilestone(key, index);
        return d.milestones[index];
    }
}
