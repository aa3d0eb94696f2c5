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
