/// Renders the command that reruns one failing test alone: the run's own command line (given by the
/// `aware-conform` executable: program, subcommand, `--target`, `--profile`, ...) followed by
/// `--seed <base> --only <ID> --iterations 1`.
public struct RerunCommand: Hashable, Sendable {
    /// `["aware-conform", "run", "--profile", "Profiles/drone.json", "--target", "embedded"]`: everything
    /// but the selection, seed, iterations, jobs, shard and report flags.
    public var baseArguments: [String]

    public init(baseArguments: [String]) {
        self.baseArguments = baseArguments
    }

    public func render(baseSeed: UInt64, id: TestID) -> String {
        (baseArguments + ["--seed", String(baseSeed), "--only", id.description, "--iterations", "1"])
            .map(Self.shellQuoted).joined(separator: " ")
    }

    /// POSIX shell quoting: plain words stay bare, anything else goes in single quotes.
    public static func shellQuoted(_ argument: String) -> String {
        let plain = argument.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "_-./:=@%+,".unicodeScalars.contains(scalar))
        }
        if plain && !argument.isEmpty { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
