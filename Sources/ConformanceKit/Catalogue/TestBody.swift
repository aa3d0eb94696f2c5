/// What a test does. Either form runs on a thread of its own, so a body that blocks or loops forever
/// cannot hold up the run: the runner stops waiting at the wall-clock guard and moves on.
public enum TestBody: Sendable {
    /// Runs to completion on its own thread; may block (socket reads, waiting for a child process).
    case blocking(@Sendable (TestContext) throws -> Void)
    /// Runs as a task; the runner cancels it when the wall-clock guard fires.
    case async(@Sendable (TestContext) async throws -> Void)
}
