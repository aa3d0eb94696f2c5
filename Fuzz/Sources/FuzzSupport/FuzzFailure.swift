/// Reports a broken property and stops the run: libFuzzer sees the crash, keeps the input
/// and prints how to rerun it.
public func fuzzFailure(_ message: String) -> Never {
    fatalError("fuzz property violated: \(message)")
}
