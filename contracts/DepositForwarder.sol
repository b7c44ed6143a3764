// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// The parts of MilestoneEscrow a forwarder uses.
interface IMilestoneEscrow {
    function usdc() external view returns (IERC20);
    function dealKey(address funder, bytes32 dealRef) external pure returns (bytes32);
    function fundWithRefundAddress(
        bytes32 dealRef,
        address evaluator,
        uint64 deadline,
        uint256[] calldata amounts,
        address refundTo
    ) external;
    function cancel(bytes32 key) external;
    function getDeal(bytes32 key)
        external
        view
        returns (address, address, address, uint64, bool, uint256, uint256, uint256, uint256, uint256);
}

/// What one deposit address is for: this deal (`dealRef`) with exactly these funding terms, and
/// where anything not used for it goes back (`refundTo`, the brand's refund address).
struct DepositTerms {
    bytes32 dealRef;
    address evaluator;
    uint64 deadline;
    address refundTo;
    uint256[] amounts;
}

/// @title DepositForwarder
/// @notice A deal's deposit address: anyone (a wallet, an exchange withdrawal) sends the deal's
/// USDC to it, and anyone triggers what happens next. It has exactly two moves, and money leaves
/// it only to this deal's escrow or to the refund address:
/// - `sweep()`: once it holds at least the total and the deal is not funded yet, it funds the
///   deal in the escrow with exactly the total (under dealKey(this forwarder, dealRef), a key
///   nobody else can create, with `refundTo` as the deal's refund recipient) and returns any
///   excess to `refundTo`;
/// - `refund()`: returns its whole balance to `refundTo`, allowed once the deal is funded (late
///   top-ups), after the deadline, or when the deal's evaluator asks (the app cancelled or
///   expired the deal).
/// As the funder of its escrow deal it may also `cancelDeal()` an untaken deal, on the
/// evaluator's word only: the escrow then returns the money to the refund recipient.
///
/// Each forwarder is an OpenZeppelin clone with immutable arguments (the abi-encoded
/// DepositTerms), deployed by DepositForwarderFactory with CREATE2, so its address is known
/// before it exists and binds the ref, the exact terms and the refund address. This contract is
/// the shared implementation; it refuses to be used directly.
contract DepositForwarder is ReentrancyGuard {
    using SafeERC20 for IERC20;

    IMilestoneEscrow public immutable escrow;
    IERC20 public immutable usdc;
    /// The factory that deployed this implementation (and deploys its clones).
    address public immutable factory;
    address private immutable _self;

    event Swept(bytes32 indexed dealKey, bytes32 indexed dealRef, uint256 total, uint256 excess, address refundTo);
    event Returned(bytes32 indexed dealRef, address indexed refundTo, uint256 amount, address caller);
    event DealCancelled(bytes32 indexed dealKey, bytes32 indexed dealRef);

    error NotAClone();
    error AlreadyFunded(bytes32 dealKey);
    error NotFunded(bytes32 dealKey);
    error Underpaid(uint256 balance, uint256 total);
    error NothingToReturn();
    error RefundNotAllowed(address caller);
    error NotEvaluator(address caller);
    error NotFactory(address caller);

    constructor(IMilestoneEscrow escrow_) {
        escrow = escrow_;
        usdc = escrow_.usdc();
        factory = msg.sender;
        _self = address(this);
    }

    /// This forwarder's terms (its clone arguments).
    function terms() public view returns (DepositTerms memory t) {
        if (address(this) == _self) revert NotAClone();
        t = abi.decode(Clones.fetchCloneArgs(address(this)), (DepositTerms));
    }

    /// The escrow key of the deal this forwarder funds: dealKey(this, dealRef).
    function dealKey() public view returns (bytes32) {
        return escrow.dealKey(address(this), terms().dealRef);
    }

    /// Whether the escrow already holds this forwarder's deal.
    function funded() public view returns (bool) {
        (address brand,,,,,,,,,) = escrow.getDeal(dealKey());
        return brand != address(0);
    }

    /// Funds the deal with exactly its total and returns the excess to the refund address.
    /// Reverts (moving nothing) while the balance is short of the total, or once funded.
    function sweep() external nonReentrant {
        DepositTerms memory t = terms();
        bytes32 key = escrow.dealKey(address(this), t.dealRef);
        (address brand,,,,,,,,,) = escrow.getDeal(key);
        if (brand != address(0)) revert AlreadyFunded(key);
        uint256 total;
        for (uint256 i; i < t.amounts.length; ++i) {
            total += t.amounts[i];
        }
        uint256 balance = usdc.balanceOf(address(this));
        if (balance < total) revert Underpaid(balance, total);

        uint256 excess = balance - total;
        emit Swept(key, t.dealRef, total, excess, t.refundTo);
        usdc.forceApprove(address(escrow), total);
        // Pulls exactly `total`; the escrow validates the terms (e.g. a past deadline reverts,
        // and then refund() is open to anyone).
        escrow.fundWithRefundAddress(t.dealRef, t.evaluator, t.deadline, t.amounts, t.refundTo);
        if (excess > 0) usdc.safeTransfer(t.refundTo, excess);
    }

    /// Returns the whole balance to the refund address (see _refund for who may, when).
    function refund() external nonReentrant {
        _refund(msg.sender);
    }

    /// The factory's refund(terms) on behalf of its caller, in the same transaction that
    /// deploys the forwarder.
    function refundFor(address caller) external nonReentrant {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        _refund(caller);
    }

    /// Cancels this forwarder's untaken escrow deal (the escrow's rule: its funder may cancel
    /// until a creator is assigned). Only the evaluator asks; the escrow sends the money to the
    /// deal's refund recipient, never here.
    function cancelDeal() external nonReentrant {
        DepositTerms memory t = terms();
        if (msg.sender != t.evaluator) revert NotEvaluator(msg.sender);
        bytes32 key = escrow.dealKey(address(this), t.dealRef);
        (address brand,,,,,,,,,) = escrow.getDeal(key);
        if (brand == address(0)) revert NotFunded(key);
        emit DealCancelled(key, t.dealRef);
        escrow.cancel(key);
    }

    /// Allowed when the deal is funded already (a late top-up), after the deadline (it can no
    /// longer be funded), or when `caller` is the deal's evaluator (the app cancelled or expired
    /// the deal). The money can only go to the refund address.
    function _refund(address caller) private {
        DepositTerms memory t = terms();
        uint256 balance = usdc.balanceOf(address(this));
        if (balance == 0) revert NothingToReturn();
        if (caller != t.evaluator && block.timestamp <= t.deadline) {
            (address brand,,,,,,,,,) = escrow.getDeal(escrow.dealKey(address(this), t.dealRef));
            if (brand == address(0)) revert RefundNotAllowed(caller);
        }
        emit Returned(t.dealRef, t.refundTo, balance, caller);
        usdc.safeTransfer(t.refundTo, balance);
    }
}

/// @title DepositForwarderFactory
/// @notice Deploys each deal's DepositForwarder at its counterfactual address: a CREATE2 clone of
/// one implementation whose immutable arguments are the abi-encoded DepositTerms, salted with
/// their hash. Anyone may deploy a forwarder, sweep it or (within its rules) refund it; the
/// factory holds nothing and has no owner.
contract DepositForwarderFactory {
    DepositForwarder public immutable implementation;

    event ForwarderDeployed(address indexed forwarder, bytes32 indexed dealRef, address refundTo);

    /// A forwarder refunding to the zero address could never return (or fund) anything.
    error ZeroRefundAddress();

    constructor(IMilestoneEscrow escrow) {
        // The factory's first creation: its address is CREATE(factory, nonce 1), so an app can
        // compute it, and every forwarder address, without asking the chain.
        implementation = new DepositForwarder(escrow);
    }

    /// The forwarder's clone arguments.
    function args(DepositTerms calldata t) public pure returns (bytes memory) {
        return abi.encode(t);
    }

    /// The forwarder's address for these terms, deployed or not.
    function forwarderAddress(DepositTerms calldata t) public view returns (address) {
        bytes memory a = abi.encode(t);
        return Clones.predictDeterministicAddressWithImmutableArgs(address(implementation), a, keccak256(a));
    }

    /// Deploys the forwarder for these terms unless it exists; returns its address.
    function deploy(DepositTerms calldata t) public returns (address forwarder) {
        if (t.refundTo == address(0)) revert ZeroRefundAddress();
        bytes memory a = abi.encode(t);
        bytes32 salt = keccak256(a);
        forwarder = Clones.predictDeterministicAddressWithImmutableArgs(address(implementation), a, salt);
        if (forwarder.code.length == 0) {
            Clones.cloneDeterministicWithImmutableArgs(address(implementation), a, salt);
            emit ForwarderDeployed(forwarder, t.dealRef, t.refundTo);
        }
    }

    /// Deploys (when needed) and sweeps the forwarder for these terms.
    function sweep(DepositTerms calldata t) external returns (address forwarder) {
        forwarder = deploy(t);
        DepositForwarder(forwarder).sweep();
    }

    /// Deploys (when needed) and refunds the forwarder for these terms, on the caller's rights.
    function refund(DepositTerms calldata t) external returns (address forwarder) {
        forwarder = deploy(t);
        DepositForwarder(forwarder).refundFor(msg.sender);
    }
}
