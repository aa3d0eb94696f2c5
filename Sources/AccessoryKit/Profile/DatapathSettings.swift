/// How the accessory answers data-path requests for a service. The phone only sets up data paths
/// with paired devices, secured with keys from pairing (apple-peer-model.md 5.17).
public struct DatapathSettings: Codable, Hashable, Sendable {
    /// The port the application listens on, advertised in the data-path setup.
    public var port: Int?
    public var cipherSuites: [PairingCipherSuite]
    /// Accept a paired peer's request without asking the application (Espressif accessories do).
    public var autoAccept: Bool
    /// Accept data paths without security. Off by default: the phone only sets up secured data
    /// paths, so an accessory that accepts an open one is misconfigured (reason 8 otherwise).
    public var allowOpen: Bool
    /// A shared key (CSID 1/2) for peers that did not pair; nil: only paired peers.
    public var sharedKey: DatapathSharedKey?

    public init(
        port: Int? = nil,
        cipherSuites: [PairingCipherSuite] = [.pasn128],
        autoAccept: Bool = true,
        allowOpen: Bool = false,
        sharedKey: DatapathSharedKey? = nil
    ) {
        self.port = port
        self.cipherSuites = cipherSuites
        self.autoAccept = autoAccept
        self.allowOpen = allowOpen
        self.sharedKey = sharedKey
    }
}
