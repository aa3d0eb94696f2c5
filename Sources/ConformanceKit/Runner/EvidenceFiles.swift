/// Where one iteration's evidence was written: paths as the run was configured (relative paths stay
/// relative to the directory the runner ran in).
public struct EvidenceFiles: Hashable, Sendable {
    public var directory: String
    public var events: String
    public var capture: String
    /// Other files the test attached, by name.
    public var attachments: [String]

    public init(directory: String, events: String, capture: String, attachments: [String]) {
        self.directory = directory
        self.events = events
        self.capture = capture
        self.attachments = attachments
    }
}
