import AwareCore
import AwareWire

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

/// A fault plan that cannot be used: which file, where in it (a JSON path such as
/// `steps[2].frame`), and what is wrong.
public struct FaultPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var problem: String

    public init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    public var description: String {
        path.isEmpty ? "\(file): \(problem)" : "\(file): \(path): \(problem)"
    }
}

/// One step of a fault plan: an action, and the tests it applies to (every test when the
/// plan names none).
public struct FaultStep: Hashable, Sendable, CustomStringConvertible {
    /// 1-based, as the plan lists it; events and failures name the step by it.
    public var number: Int
    public var tests: [TestPattern]
    public var action: FaultAction

    public init(number: Int, tests: [TestPattern] = [], action: FaultAction) {
        self.number = number
        self.tests = tests
        self.action = action
    }

    public func applies(to id: TestID) -> Bool {
        tests.isEmpty || tests.contains { $0.matches(id) }
    }

    public var description: String { "step \(number) (\(action.name))" }
}

/// What one step of a fault plan does.
public enum FaultAction: Hashable, Sendable {
    /// Lose the selected frame: its first transmission only (the sender's MAC may recover by
    /// retrying), or every retransmission of it too.
    case drop(FaultFrameSelector, everyAttempt: Bool)
    /// Hold the selected frame back before it goes on the air (a slow firmware).
    case delay(FaultFrameSelector, by: Interval)
    /// Change a named field of the selected frame (in the `occurrence`-th container that has it).
    case corrupt(FaultFrameSelector, field: FaultField, occurrence: Int, change: FaultFieldChange)
    /// Power-cycle the accessory when the phone reaches `after`.
    case reboot(after: FaultMilestone)
    /// Carry the phone out of range when it reaches `after`, for `duration` (nil: for good):
    /// nothing either side sends reaches the other.
    case outOfRange(after: FaultMilestone, duration: Interval?)

    /// The action's name as a plan writes it.
    public var name: String {
        switch self {
        case .drop: "drop"
        case .delay: "delay"
        case .corrupt: "corrupt"
        case .reboot: "reboot"
        case .outOfRange: "out-of-range"
        }
    }

    var selector: FaultFrameSelector? {
        switch self {
        case .drop(let selector, _), .delay(let selector, _), .corrupt(let selector, _, _, _): selector
        case .reboot, .outOfRange: nil
        }
    }
}

/// When a lifecycle step (reboot, out of range) happens: at a moment of the phone's own
/// progress, as the phone logs it in the test's events.jsonl.
public enum FaultMilestone: String, CaseIterable, Hashable, Sendable {
    /// As soon as the test's phone is on the air.
    case start
    /// The phone found a matching service (`discovery_result`, matched).
    case discovered
    /// The accessory accepted the phone's bootstrapping (`bootstrap_accepted`): its PIN is up.
    case bootstrapped
    /// A pairing setup succeeded (`pairing_outcome` paired): "between pairing and verification".
    case paired
    /// A pairing verification succeeded (`pairing_outcome` reconnected).
    case reconnected
    /// A data path came up (`datapath_established`).
    case dataPathUp = "datapath-up"

    /// Whether the phone's log line `event` with `fields` marks this milestone.
    func isReached(by event: String, fields: [String: JSONValue]) -> Bool {
        switch self {
        case .start: false
        case .discovered: event == "discovery_result" && fields["matched"] == .bool(true)
        case .bootstrapped: event == "bootstrap_accepted"
        case .paired: event == "pairing_outcome" && fields["result"] == .string("paired")
        case .reconnected: event == "pairing_outcome" && fields["result"] == .string("reconnected")
        case .dataPathUp: event == "datapath_established"
        }
    }
}
