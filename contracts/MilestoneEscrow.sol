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
/// never keep funds locked. Money leaves only to the deal's creator or the deal's brand: there is
/// no owner, no admin, no sweep and no upgrade path.
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

    struct Deal {
        address brand; // zero: the deal does not exist
        uint64 deadline;
        bool cancelled;
        address evaluator;
        address creator; // zero until assigned
        uint256 funded;
        uint256 released; // paid to the creator
        uint256 refunded; // returned to the brand
        Milestone[] milestones;
    }

    /// After deadline + GRACE_PERIOD only refunds are possible.
    uint256 public constant GRACE_PERIOD = 7 days;
    /// Bounds the loop in cancel() so it always fits in a block.
    uint256 public constant MAX_MILESTONES = 50;
    bytes32 public constant RELEASE_TYPEHASH =
        keccak256("Release(bytes32 dealId,uint256 index,uint256 payout,bytes32 verdictHash,uint256 deadline)");

    IERC20 public immutable usdc;

    mapping(bytes32 => Deal) private _deals;

    event Funded(
        bytes32 indexed dealId,
        address indexed brand,
        address indexed evaluator,
        uint64 deadline,
        uint256 total,
        uint256 milestoneCount
    );
    event CreatorAssigned(bytes32 indexed dealId, address indexed creator);
    event Released(
        bytes32 indexed dealId,
        uint256 indexed index,
        address indexed creator,
        uint256 payout,
        uint256 refund,
        bytes32 verdictHash
    );
    event Refunded(bytes32 indexed dealId, uint256 indexed index, uint256 amount);
    event Cancelled(bytes32 indexed dealId, uint256 refunded);

    error DealExists(bytes32 dealId);
    error DealNotFound(bytes32 dealId);
    error ZeroAddress();
    error InvalidMilestoneCount(uint256 count);
    error ZeroAmount(uint256 index);
    error DeadlineNotInFuture(uint64 deadline);
    error NotEvaluator(address caller);
    error NotBrand(address caller);
    error CreatorAlreadyAssigned(bytes32 dealId);
    error CreatorNotAssigned(bytes32 dealId);
    error DealIsCancelled(bytes32 dealId);
    error InvalidMilestone(bytes32 dealId, uint256 index);
    error MilestoneNotLocked(bytes32 dealId, uint256 index, MilestoneState state);
    error PayoutExceedsAmount(uint256 payout, uint256 amount);
    error ReleaseWindowClosed(uint256 closedAt);
    error ZeroVerdictHash();
    error SignatureExpired(uint256 sigDeadline);
    error InvalidSignature();
    error RefundNotYetAvailable(uint256 availableAfter);

    constructor(IERC20 usdc_) EIP712("MilestoneEscrow", "1") {
        if (address(usdc_) == address(0)) revert ZeroAddress();
        usdc = usdc_;
    }

    // ---- funding ---------------------------------------------------------------------------

    /// Funds a deal from msg.sender (the brand), who must have approved the total.
    function fund(bytes32 dealId, address evaluator, uint64 deadline, uint256[] calldata amounts)
        external
        nonReentrant
    {
        uint256 total = _record(dealId, msg.sender, evaluator, deadline, amounts);
        usdc.safeTransferFrom(msg.sender, address(this), total);
    }

    /// Gasless funding: anyone submits the brand's EIP-3009 ReceiveWithAuthorization. Its nonce
    /// is derived here from the deal's terms, so a submitter who changes the evaluator, deadline
    /// or split makes the token reject the signature.
    function fundWithAuthorization(
        bytes32 dealId,
        address brand,
        address evaluator,
        uint64 deadline,
        uint256[] calldata amounts,
        uint256 validAfter,
        uint256 validBefore,
        bytes calldata signature
    ) external nonReentrant {
        if (brand == address(0)) revert ZeroAddress();
        uint256 total = _record(dealId, brand, evaluator, deadline, amounts);
        bytes32 nonce = fundingNonce(dealId, brand, evaluator, deadline, amounts);
        // receiveWithAuthorization (not transfer…) because only the payee may submit it, so
        // nobody can spend the authorization outside this call.
        IERC3009Receive(address(usdc)).receiveWithAuthorization(
            brand, address(this), total, validAfter, validBefore, nonce, signature
        );
    }

    /// The EIP-3009 nonce a brand signs to fund `dealId` with these terms through
    /// fundWithAuthorization. Binds chain and contract too, so it cannot be used elsewhere.
    function fundingNonce(
        bytes32 dealId,
        address brand,
        address evaluator,
        uint64 deadline,
        uint256[] calldata amounts
    ) public view returns (bytes32) {
        return keccak256(
            abi.encode(
                block.chainid, address(this), dealId, brand, evaluator, deadline, keccak256(abi.encodePacked(amounts))
            )
        );
    }

    // ---- assignment ------------------------------------------------------------------------

    /// Records the creator who took the deal; from then on the brand can no longer cancel.
    function assignCreator(bytes32 dealId, address creator) external nonReentrant {
        Deal storage d = _existing(dealId);
        if (msg.sender != d.evaluator) revert NotEvaluator(msg.sender);
        if (d.cancelled) revert DealIsCancelled(dealId);
        if (d.creator != address(0)) revert CreatorAlreadyAssigned(dealId);
        if (creator == address(0)) revert ZeroAddress();
        d.creator = creator;
        emit CreatorAssigned(dealId, creator);
    }

    // ---- release ---------------------------------------------------------------------------

    /// Settles milestone `index`: `payout` to the creator, the rest of its amount to the brand.
    function release(bytes32 dealId, uint256 index, uint256 payout, bytes32 verdictHash) external nonReentrant {
        Deal storage d = _existing(dealId);
        if (msg.sender != d.evaluator) revert NotEvaluator(msg.sender);
        _release(dealId, d, index, payout, verdictHash);
    }

    /// Like release, submitted by anyone with the evaluator's EIP-712 signature. A signature can
    /// be used at most once in effect: the milestone leaves Locked on the first use.
    function releaseWithSig(
        bytes32 dealId,
        uint256 index,
        uint256 payout,
        bytes32 verdictHash,
        uint256 sigDeadline,
        bytes calldata signature
    ) external nonReentrant {
        Deal storage d = _existing(dealId);
        if (block.timestamp > sigDeadline) revert SignatureExpired(sigDeadline);
        bytes32 digest =
            _hashTypedDataV4(keccak256(abi.encode(RELEASE_TYPEHASH, dealId, index, payout, verdictHash, sigDeadline)));
        // SignatureChecker: an evaluator may also be a contract wallet (ERC-1271).
        if (!SignatureChecker.isValidSignatureNow(d.evaluator, digest, signature)) revert InvalidSignature();
        _release(dealId, d, index, payout, verdictHash);
    }

    // ---- refunds ---------------------------------------------------------------------------

    /// The brand withdraws a deal nobody has taken yet: every locked milestone comes back.
    function cancel(bytes32 dealId) external nonReentrant {
        Deal storage d = _existing(dealId);
        if (msg.sender != d.brand) revert NotBrand(msg.sender);
        if (d.cancelled) revert DealIsCancelled(dealId);
        if (d.creator != address(0)) revert CreatorAlreadyAssigned(dealId);

        d.cancelled = true;
        uint256 total;
        uint256 count = d.milestones.length;
        for (uint256 i; i < count; ++i) {
            Milestone storage m = d.milestones[i];
            // Milestones already refunded by refundExpired are skipped.
            if (m.state != MilestoneState.Locked) continue;
            m.state = MilestoneState.Refunded;
            total += m.amount;
            emit Refunded(dealId, i, m.amount);
        }
        d.refunded += total;
        emit Cancelled(dealId, total);
        if (total > 0) usdc.safeTransfer(d.brand, total);
    }

    /// After deadline + GRACE_PERIOD anyone may return a locked milestone to the brand: the money
    /// can only go there, so no permission is needed, and the service cannot block it.
    function refundExpired(bytes32 dealId, uint256 index) external nonReentrant {
        Deal storage d = _existing(dealId);
        Milestone storage m = _milestone(dealId, d, index);
        if (m.state != MilestoneState.Locked) revert MilestoneNotLocked(dealId, index, m.state);
        uint256 availableAfter = uint256(d.deadline) + GRACE_PERIOD;
        if (block.timestamp <= availableAfter) revert RefundNotYetAvailable(availableAfter);

        m.state = MilestoneState.Refunded;
        d.refunded += m.amount;
        emit Refunded(dealId, index, m.amount);
        usdc.safeTransfer(d.brand, m.amount);
    }

    // ---- views -----------------------------------------------------------------------------

    /// All zero for an unknown deal (brand == address(0)).
    function getDeal(bytes32 dealId)
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
        Deal storage d = _deals[dealId];
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

    function getMilestone(bytes32 dealId, uint256 index)
        external
        view
        returns (uint256 amount, MilestoneState state)
    {
        Deal storage d = _existing(dealId);
        Milestone storage m = _milestone(dealId, d, index);
        return (m.amount, m.state);
    }

    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    // ---- internals -------------------------------------------------------------------------

    /// Validates and stores a new deal (effects before the caller pulls the funds).
    function _record(bytes32 dealId, address brand, address evaluator, uint64 deadline, uint256[] calldata amounts)
        private
        returns (uint256 total)
    {
        Deal storage d = _deals[dealId];
        if (d.brand != address(0)) revert DealExists(dealId);
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
        emit Funded(dealId, brand, evaluator, deadline, total, count);
    }

    function _release(bytes32 dealId, Deal storage d, uint256 index, uint256 payout, bytes32 verdictHash) private {
        address creator = d.creator;
        if (creator == address(0)) revert CreatorNotAssigned(dealId);
        Milestone storage m = _milestone(dealId, d, index);
        if (m.state != MilestoneState.Locked) revert MilestoneNotLocked(dealId, index, m.state);
        uint256 amount = m.amount;
        if (payout > amount) revert PayoutExceedsAmount(payout, amount);
        uint256 closedAt = uint256(d.deadline) + GRACE_PERIOD;
        if (block.timestamp > closedAt) revert ReleaseWindowClosed(closedAt);
        if (verdictHash == bytes32(0)) revert ZeroVerdictHash();

        uint256 refund = amount - payout;
        m.state = MilestoneState.Released;
        d.released += payout;
        d.refunded += refund;
        emit Released(dealId, index, creator, payout, refund, verdictHash);
        if (payout > 0) usdc.safeTransfer(creator, payout);
        if (refund > 0) usdc.safeTransfer(d.brand, refund);
    }

    function _existing(bytes32 dealId) private view returns (Deal storage d) {
        d = _deals[dealId];
        if (d.brand == address(0)) revert DealNotFound(dealId);
    }

    function _milestone(bytes32 dealId, Deal storage d, uint256 index) private view returns (Milestone storage) {
        if (index >= d.milestones.length) revert InvalidMilestone(dealId, index);
        return d.milestones[index];
    }
}
