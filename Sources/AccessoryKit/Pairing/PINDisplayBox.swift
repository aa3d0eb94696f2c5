import AwareCore
import AwareWire

/// The box a person reads on the accessory's terminal when a phone asks to pair: the PIN in
/// large spaced digits, which accessory is asking, and what to do with it.
public enum PINDisplayBox {
    /// For example, for PIN 483920, pairing name "My Drone" and peer 02:b0:00:00:00:01:
    ///
    ///     ╔═══════════════════════════════════╗
    ///     ║                                   ║
    ///     ║   Pairing “My Drone”              ║
    ///     ║   with 02:b0:00:00:00:01          ║
    ///     ║                                   ║
    ///     ║      4   8   3   9   2   0        ║
    ///     ║                                   ║
    ///     ║   Enter this PIN on your iPhone   ║
    ///     ║                                   ║
    ///     ╚═══════════════════════════════════╝
    public static func render(pin: PINCode, pairingName: String, peer: MACAddress?) -> String {
        let spaced = pin.digits.map(String.init).joined(separator: "   ")
        var lines = ["", "Pairing “\(pairingName)”"]
        if let peer { lines.append("with \(peer)") }
        lines += ["", "   " + spaced, "", "Enter this PIN on your iPhone", ""]
        // Characters, not octets: the pairing name may be any UTF-8 (up to 63 octets).
        let width = lines.map(\.count).max() ?? 0
        let inner = width + 6
        var out = ["╔" + String(repeating: "═", count: inner) + "╗"]
        for line in lines {
            out.append("║   " + line + String(repeating: " ", count: width - line.count) + "   ║")
        }
        out.append("╚" + String(repeating: "═", count: inner) + "╝")
        return out.joined(separator: "\n") + "\n"
    }
}
