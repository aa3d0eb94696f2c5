/// Which air a program joins, as written on its command line: `sim` or `socket[:PATH]`.
public enum AirSpecifier: Hashable, Sendable, CustomStringConvertible {
    /// The in-process simulated air with virtual time.
    case simulated
    /// The air shared between processes through a directory of sockets; nil means the
    /// per-user default (``SocketAir/defaultPath``).
    case socket(path: String?)

    /// Parses `sim`, `socket` or `socket:PATH`; nil for anything else.
    public init?(argument: String) {
        if argument == "sim" {
            self = .simulated
        } else if argument == "socket" {
            self = .socket(path: nil)
        } else if argument.hasPrefix("socket:"), argument.count > "socket:".count {
            self = .socket(path: String(argument.dropFirst("socket:".count)))
        } else {
            return nil
        }
    }

    /// The socket directory this specifier names, with the default filled in.
    public var socketPath: String? {
        guard case .socket(let path) = self else { return nil }
        return path ?? SocketAir.defaultPath
    }

    public var description: String {
        switch self {
        case .simulated: "sim"
        case .socket(let path?): "socket:\(path)"
        case .socket(nil): "socket"
        }
    }
}
