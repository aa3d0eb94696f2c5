/// Whether a test runs against a profile on a target, and if not, the reason reported as its skip.
public enum Applicability: Hashable, Sendable {
    case applicable
    case notApplicable(reason: String)

    public var isApplicable: Bool { self == .applicable }

    public var reason: String? {
        if case .notApplicable(let reason) = self { return reason }
        return nil
    }
}
