/// How `TestContext.require` and `TestContext.skip` leave a test body early. Internal, so a body cannot
/// throw one by accident.
enum TestInterruption: Error {
    /// A requirement failed; the failure is already recorded.
    case requirementFailed
    case skipped(reason: String)
}
