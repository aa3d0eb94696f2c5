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
