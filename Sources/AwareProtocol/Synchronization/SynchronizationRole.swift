/// A device's role in its cluster (nan-wire-reference.md 1.4). Masters send discovery beacons;
/// masters and non-master sync devices send sync beacons in DWs. Non-master non-sync is not
/// entered by this engine (see ``SynchronizationEngine``).
public enum SynchronizationRole: String, Hashable, Sendable {
    case master
    case nonMasterSync
    case nonMasterNonSync

    var sendsSyncBeacons: Bool { self != .nonMasterNonSync }
}
