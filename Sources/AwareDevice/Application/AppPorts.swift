/// The UDP ports of the bench's application traffic. The accessory listens on the port its
/// profile gives each service (`datapath.port`); the phone's app sends from, and receives on,
/// one ephemeral port, the first of the dynamic range (RFC 6335 6).
public enum AppPorts {
    public static let phone: UInt16 = 49_152
    /// An accessory service without a port in its profile.
    public static let defaultService: UInt16 = 7_000
}
