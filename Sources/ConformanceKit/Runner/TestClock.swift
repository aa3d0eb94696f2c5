/// Which clock a test's time (`t` in events, its virtual duration, its budget) is read from.
public enum TestClock: String, Hashable, Sendable {
    /// The test's simulated air sets the time (`TestContext.advanceVirtualTime(to:)`); it starts at zero.
    case virtual
    /// Wall-clock time since the test began: targets that talk to real processes.
    case wall
}
