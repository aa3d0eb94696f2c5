import AwareWire

extension ManagementFrameBody {
    /// An SDF or NAF (nan-wire-reference.md 1.1).
    var isNANAction: Bool {
        switch self {
        case .serviceDiscovery, .nanAction: true
        default: false
        }
    }

    /// The Action frame Category, when the body is a readable Action frame.
    var actionCategory: UInt8? {
        switch self {
        case .serviceDiscovery(let sdf): sdf.category.rawValue
        case .nanAction(let naf): naf.category.rawValue
        case .otherAction(let category, _): category
        default: nil
        }
    }
}
