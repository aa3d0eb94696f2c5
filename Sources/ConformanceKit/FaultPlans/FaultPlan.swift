/// Faults a run applies to its tests, declared in data (`aware-conform run --fault-plan
/// FILE`, docs/reference/fault-plans.md): lose, delay or corrupt chosen frames on the air, reboot the
/// accessory or carry the phone out of range at a moment of the test. The air applies frame
/// faults where a test's phone stands, so the capture of a failing test shows them.
public struct FaultPlan: Hashable, Sendable {
    /// The `faultPlan` version this build reads.
    public static let version = 1

    public var description: String?
    public var steps: [FaultStep]

    public init(description: String? = nil, steps: [FaultStep]) {
        self.description = description
        self.steps = steps
    }

    /// The steps for test `id`, in plan order.
    public func steps(for id: TestID) -> [FaultStep] {
        steps.filter { $0.applies(to: id) }
    }
}
