/// Which air a program joins, as written on its command line: `sim` or `socket[:PATH]`.
public enum AirSpecifier: Hashable, Sendable, CustomStringConvertible {
    /// The in-process simulated air with virtual time.
    case simulated
    /// The air shared between processes through a directory of sockets; nil means the
    /// per-user default (``SocketAir/defaultPath``).
    case socket(path: String?)

    /// The option that puts a socket air in lockstep virtual time: `socket:PATH?lockstep`.
    public static let lockstepSuffix = "?lockstep"

    /// Whether `argument` asks for a socket air in lockstep virtual time (docs/socket-air.md,
    /// "Lockstep").
    public static func isLockstep(argument: String) -> Bool {
        argument.hasSuffix(lockstepSuffix) && AirSpecifier(argument: argument)?.socketPath != nil
    }

    /// Parses `sim`, `socket` or `socket:PATH`, each socket form optionally with `?lockstep`;
    /// nil for anything else.
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
