/// Who broke when a test's verdict is `error`: the test itself (a bug: exit 1) or the bench around it
/// (an `EnvironmentError`: exit 3).
public enum ErrorOrigin: String, Hashable, Sendable {
    case test
    case environment
}
