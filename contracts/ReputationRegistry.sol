// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title ReputationRegistry
/// @notice Public, per-wallet record of settled milestones and their verification scores.
/// Only the attestor (the settlement service) writes; each milestone is recorded at most once,
/// so a retried write reverts instead of double-counting.
contract ReputationRegistry is Ownable {
    uint16 public constant MAX_SCORE_BPS = 10_000;
    /// Bounds recordSettlements: 200 records (about 50k gas each) stay well inside a block.
    uint256 public constant MAX_BATCH = 200;

    /// One record of recordSettlements: what recordSettlement takes.
    struct SettlementRecord {
        address wallet;
        uint16 scoreBps;
        bytes32 milestoneRef;
        uint256 amount;
    }

    struct Reputation {
        uint64 count;
        // 192 bits cannot overflow: each record adds at most 10_000 and count is uint64.
        uint192 totalScoreBps;
    }

    address public attestor;
    mapping(address => Reputation) private _reputations;
    mapping(bytes32 => bool) public isRecorded;

    event SettlementRecorded(
        address indexed wallet,
        bytes32 indexed milestoneRef,
        uint16 scoreBps,
        uint256 amount,
        uint64 count,
        uint16 meanScoreBps
    );
    event AttestorChanged(address indexed previousAttestor, address indexed newAttestor);
    /// A record of recordSettlements that was not written (nothing of it changed): `reason` is
    /// the error recordSettlement would have reverted with (e.g. AlreadyRecorded).
    event RecordSkipped(bytes32 indexed milestoneRef, bytes reason);

    error NotAttestor(address caller);
    error ScoreOutOfRange(uint16 scoreBps);
    error AlreadyRecorded(bytes32 milestoneRef);
    error ZeroAddress();
    error ZeroMilestoneRef();
    error InvalidBatchSize(uint256 count);

    constructor(address attestor_) Ownable(msg.sender) {
        _setAttestor(attestor_);
    }

    modifier onlyAttestor() {
        if (msg.sender != attestor) revert NotAttestor(msg.sender);
        _;
    }

    function setAttestor(address newAttestor) external onlyOwner {
        _setAttestor(newAttestor);
    }

    function recordSettlement(address wallet, uint16 scoreBps, bytes32 milestoneRef, uint256 amount)
        external
        onlyAttestor
    {
        bytes memory refusal = _refusal(wallet, scoreBps, milestoneRef);
        if (refusal.length > 0) {
            assembly {
                revert(add(refusal, 32), mload(refusal))
            }
        }
        _record(wallet, scoreBps, milestoneRef, amount);
    }

    /// Several records in one transaction (the service records every milestone a batch of
    /// releases paid). Each is written exactly as recordSettlement would write it, or skipped:
    /// a record recordSettlement would refuse (already recorded — a retried or overlapping
    /// batch —, zero wallet or ref, score out of range) emits RecordSkipped with the refusal
    /// and changes nothing, and the others are still written. A record repeated in one batch
    /// counts once. Nothing here calls out, so each record is checked in full before it
    /// writes anything. Returns how many were written.
    function recordSettlements(SettlementRecord[] calldata records)
        external
        onlyAttestor
        returns (uint256 written)
    {
        uint256 n = records.length;
        if (n == 0 || n > MAX_BATCH) revert InvalidBatchSize(n);
        for (uint256 i; i < n; ++i) {
            SettlementRecord calldata r = records[i];
            bytes memory refusal = _refusal(r.wallet, r.scoreBps, r.milestoneRef);
            if (refusal.length > 0) {
                emit RecordSkipped(r.milestoneRef, refusal);
                continue;
            }
            _record(r.wallet, r.scoreBps, r.milestoneRef, r.amount);
            ++written;
        }
    }

    function count(address wallet) external view returns (uint64) {
        return _reputations[wallet].count;
    }

    function totalScoreBps(address wallet) external view returns (uint256) {
        return _reputations[wallet].totalScoreBps;
    }

    /// Mean score rounded down; 0 for a wallet with no records.
    function meanScoreBps(address wallet) external view returns (uint16) {
        return _mean(_reputations[wallet]);
    }

    function reputationOf(address wallet) external view returns (uint64 count_, uint16 meanScoreBps_) {
        Reputation storage rep = _reputations[wallet];
        return (rep.count, _mean(rep));
    }

    /// Why a record cannot be written (the error, ABI-encoded), or empty when it can.
    function _refusal(address wallet, uint16 scoreBps, bytes32 milestoneRef) private view returns (bytes memory) {
        if (wallet == address(0)) return abi.encodeWithSelector(ZeroAddress.selector);
        if (scoreBps > MAX_SCORE_BPS) return abi.encodeWithSelector(ScoreOutOfRange.selector, scoreBps);
        if (milestoneRef == bytes32(0)) return abi.encodeWithSelector(ZeroMilestoneRef.selector);
        if (isRecorded[milestoneRef]) return abi.encodeWithSelector(AlreadyRecorded.selector, milestoneRef);
        return "";
    }

    function _record(address wallet, uint16 scoreBps, bytes32 milestoneRef, uint256 amount) private {
        isRecorded[milestoneRef] = true;
        Reputation storage rep = _reputations[wallet];
        rep.count += 1;
        rep.totalScoreBps += scoreBps;
        emit SettlementRecorded(wallet, milestoneRef, scoreBps, amount, rep.count, _mean(rep));
    }

    function _mean(Reputation storage rep) private view returns (uint16) {
        if (rep.count == 0) return 0;
        // The mean of values <= 10_000 is <= 10_000, so the cast is safe.
        return uint16(rep.totalScoreBps / rep.count);
    }

    function _setAttestor(address newAttestor) private {
        if (newAttestor == address(0)) revert ZeroAddress();
        emit AttestorChanged(attestor, newAttestor);
        attestor = newAttestor;
    }
}
