/// A row of `aware-conform list`: a test and, when a profile was given, whether it applies.
public struct CatalogueEntry: Sendable {
    public let test: ConformanceTest
    /// Nil when listed without a profile.
    public let applicability: Applicability?
}
