/// Which air a program joins, as written on its command line: `sim`, `socket[:PATH]` or
/// `nl80211:IFACE`.
public enum AirSpecifier: Hashable, Sendable, CustomStringConvertible {
    /// The in-process simulated air with virtual time.
    case simulated
    /// The air shared between processes through a directory of sockets; nil means the
    /// per-user default (``SocketAir/defaultPath``).
    case socket(path: String?)
    /// A real radio through nl80211 (``NL80211Radio``), named by its network interface.
    case nl80211(interface: String)

    /// The option that puts a socket air in lockstep virtual time: `socket:PATH?lockstep`.
    public static let lockstepSuffix = "?lockstep"

    /// Whether `argument` asks for a socket air in lockstep virtual time (docs/reference/socket-air.md,
    /// "Lockstep").
    public static func isLockstep(argument: String) -> Bool {
        argument.hasSuffix(lockstepSuffix) && AirSpecifier(argument: argument)?.socketPath != nil
    }

    /// Parses `sim`, `socket`, `socket:PATH` (each socket form optionally with `?lockstep`) or
    /// `nl80211:IFACE`; nil for anything else.
    public init?(argument: String) {
        var argument = argument
        if argument.hasSuffix(Self.lockstepSuffix), argument.hasPrefix("socket") {
            argument = String(argument.dropLast(Self.lockstepSuffix.count))
        }
        if argument == "sim" {
            self = .simulated
        } else if argument == "socket" {
            self = .socket(path: nil)
        } else if argument.hasPrefix("socket:"), argument.count > "socket:".count {
            self = .socket(path: String(argument.dropFirst("socket:".count)))
        } else if argument.hasPrefix("nl80211:"), let name = Self.interfaceName(argument.dropFirst("nl80211:".count)) {
            self = .nl80211(interface: name)
        } else {
            return nil
        }
    }

    /// The socket directory this specifier names, with the default filled in.
    public var socketPath: String? {
        guard case .socket(let path) = self else { return nil }
        return path ?? SocketAir.defaultPath
    }

    /// The network interface this specifier names.
    public var interfaceName: String? {
        guard case .nl80211(let name) = self else { return nil }
        return name
    }

    public var description: String {
        switch self {
        case .simulated: "sim"
        case .socket(let path?): "socket:\(path)"
        case .socket(nil): "socket"
        case .nl80211(let name): "nl80211:\(name)"
        }
    }

    /// A Linux interface name: 1 to 15 octets (`IFNAMSIZ` 16 with the NUL), no '/', ':' or
    /// white space (`dev_valid_name` in `net/core/dev.c`), and not "." or "..".
    private static func interfaceName(_ text: Substring) -> String? {
        guard (1...15).contains(text.utf8.count), text != ".", text != "..",
            !text.contains(where: { $0 == "/" || $0 == ":" || $0.isWhitespace })
        else { return nil }
        return String(text)
    }
}
