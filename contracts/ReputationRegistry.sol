// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title ReputationRegistry
/// @notice Public, per-wallet record of settled milestones and their verification scores.
/// Only the attestor (the settlement service) writes; each milestone is recorded at most once,
/// so a retried write reverts instead of double-counting.
contract ReputationRegistry is Ownable {
    uint16 public constant MAX_SCORE_BPS = 10_000;

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

    error NotAttestor(address caller);
    error ScoreOutOfRange(uint16 scoreBps);
    error AlreadyRecorded(bytes32 milestoneRef);
    error ZeroAddress();
    error ZeroMilestoneRef();

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
        if (wallet == address(0)) revert ZeroAddress();
        if (scoreBps > MAX_SCORE_BPS) revert ScoreOutOfRange(scoreBps);
        if (milestoneRef == bytes32(0)) revert ZeroMilestoneRef();
        if (isRecorded[milestoneRef]) revert AlreadyRecorded(milestoneRef);

        isRecorded[milestoneRef] = true;
        Reputation storage rep = _reputations[wallet];
        rep.count += 1;
        rep.totalScoreBps += scoreBps;

        emit SettlementRecorded(wallet, milestoneRef, scoreBps, amount, rep.count, _mean(rep));
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
