import AwareCore
import AwareProtocol
import AwareWire
import ConformanceKit
import Foundation

/// `perf`'s output: one JSON object, or a table of the phone's and the accessory's reports side
/// by side.
struct PerfPrinter {
    let plan: PerfPlan
    let target: String
    let result: PerfResult
    var phone = PhoneProfile.Name.reference

    /// The phone report's fields at the top level, then what was asked and the accessory's report.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("command", .string("perf")), ("result", .string(result.result.rawValue)),
            ("reason", result.reason.map(JSONValue.string) ?? .null), ("detail", .string(result.detail)),
            ("target", .string(target)), ("phone", .string(phone.rawValue)),
            ("accessory", result.accessory.map { .string($0.description) } ?? .null),
            ("service", .string(plan.service)), ("mode", .string(plan.mode.rawValue)),
            ("serviceClass", .string(plan.serviceClass.commandLineName)),
            ("accessCategory", .string(plan.serviceClass.accessCategory.rawValue)),
            ("accessoryMode", plan.accessoryMode.map { .string($0.rawValue) } ?? .null),
            ("pairing", result.pairing.map(JSONValue.string) ?? .null),
            ("nanReasonCode", result.nanReason.map { .unsigned(UInt64($0)) } ?? .null),
            ("cipherSuite", result.csid.map { .unsigned(UInt64($0)) } ?? .null),
            (
                "flow",
                .object([
                    ("flowID", result.flowID.map { .unsigned(UInt64($0)) } ?? .null),
                    ("rateHz", .double(plan.rateHz)), ("payloadOctets", .integer(Int64(plan.payloadOctets))),
                    ("durationSeconds", .double(plan.durationSeconds)),
                    ("tid", .unsigned(UInt64(plan.serviceClass.accessCategory.tid))),
                    ("windowSeconds", result.windowSeconds.map(JSONValue.double) ?? .null),
                ])
            ),
            ("latencyBudgetMs", plan.latencyBudgetMs.map(JSONValue.double) ?? .null),
            ("traffic", .string(plan.traffic.rawValue)),
            (
                "echo",
                plan.traffic == .echo
                    ? .object([
                        ("sent", result.echoSent.map { .integer(Int64($0)) } ?? .null),
                        ("answered", result.echoAnswered.map { .integer(Int64($0)) } ?? .null),
                        ("roundTripMs", result.roundTrip.map(Self.roundTripJSON) ?? .null),
                    ]) : .null
            ),
        ]
        if case .object(let report)? = result.phoneReport?.json { fields += report }
        fields.append(("accessoryReport", result.accessoryReport ?? .null))
        return .object(fields)
    }

    var text: String {
        var lines: [String] = []
        let reason = result.reason.map { " (\($0))" } ?? ""
        let accessory = result.accessory.map { " with \($0)" } ?? ""
        let security = result.csid.map { ", CSID \($0)" } ?? ""
        let pairing = result.pairing.map { " (\($0)\(security))" } ?? ""
        lines.append("perf: \(result.result.rawValue)\(reason)\(accessory) on \(target)\(pairing)")
        let category = plan.serviceClass.accessCategory
        lines.append(
            "  asked: \(plan.mode.rawValue), \(plan.serviceClass.commandLineName) (\(category.rawValue), "
                + "TID \(category.tid)), \(Self.number(plan.rateHz, 1)) Hz x \(plan.payloadOctets) octets for "
                + "\(Self.number(plan.durationSeconds, 1)) s on port \(plan.servicePort)"
                + (result.flowID.map { ", flow \($0)" } ?? "")
        )
        if !result.detail.isEmpty { lines.append("  \(result.detail)") }
        if plan.traffic == .echo {
            lines.append(
                "  echo: \(result.echoAnswered ?? 0) of \(result.echoSent ?? 0) requests answered"
            )
            if let trip = result.roundTrip {
                let budget = plan.latencyBudgetMs.map { " (budget \(Self.number($0, 0)) ms each way)" } ?? ""
                lines.append(
                    "  round trip min/p50/p95/p99/max (ms): "
                        + [trip.minimum, trip.p50, trip.p95, trip.p99, trip.maximum]
                        .map { Self.number($0.milliseconds, 2) }.joined(separator: " / ") + budget
                )
            }
        }
        guard let phone = result.phoneReport?.json else { return lines.joined(separator: "\n") }
        let accessoryReport = result.accessoryReport ?? .null
        lines.append("")
        lines.append(Self.row("", "phone", "accessory"))
        for (label, path, digits) in Self.rows {
            lines.append(
                Self.row(label, Self.format(phone[path], digits), Self.format(accessoryReport[path], digits))
            )
        }
        for category in AccessCategory.allCases.reversed() {
            let path = ["transmitLatencyMs", category.rawValue]
            guard phone[path] != nil || accessoryReport[path] != nil else { continue }
            lines.append(
                Self.row(
                    "transmit latency \(category.rawValue) (ms)",
                    Self.format(phone[path], 2),
                    Self.format(accessoryReport[path], 2)
                )
            )
        }
        let latency = ["mean", "p50", "p95", "p99"].map { Self.format(phone[["latencyMs", $0]], 2) }
        let budget = plan.latencyBudgetMs.map { " (budget \(Self.number($0, 0)) ms)" } ?? ""
        lines.append(Self.row("latency mean/p50/p95/p99 (ms)", latency.joined(separator: " / ") + budget, ""))
        lines.append(Self.row("jitter (ms)", Self.format(phone[["jitterMs"]], 2), ""))
        for (label, path) in [("delivered", ["packets", "delivered"]), ("offered", ["packets", "offered"])] {
            lines.append(
                Self.row("packets \(label)", Self.format(phone[path], 0), Self.format(accessoryReport[path], 0))
            )
        }
        for (label, path, digits) in Self.trailingRows {
            lines.append(
                Self.row(label, Self.format(phone[path], digits), Self.format(accessoryReport[path], digits))
            )
        }
        if result.accessoryReport != nil {
            lines.append("  (the accessory counts every frame it sent on the data path: telemetry and control too)")
        }
        return lines.joined(separator: "\n")
    }

    static func roundTripJSON(_ trip: LatencyStatistics) -> JSONValue {
        .object([
            ("count", .integer(Int64(trip.count))), ("min", .double(trip.minimum.milliseconds)),
            ("mean", .double(trip.mean.milliseconds)), ("p50", .double(trip.p50.milliseconds)),
            ("p95", .double(trip.p95.milliseconds)), ("p99", .double(trip.p99.milliseconds)),
            ("max", .double(trip.maximum.milliseconds)),
        ])
    }

    private static let rows: [(String, [String], Int)] = [
        ("signal strength (0-1)", ["signalStrength"], 2),
        ("throughput ceiling (Mbps)", ["throughputCeilingMbps"], 1),
        ("throughput capacity (Mbps)", ["throughputCapacityMbps"], 2),
        ("capacity ratio", ["throughputCapacityRatio"], 2),
    ]

    private static let trailingRows: [(String, [String], Int)] = [
        ("throughput (Mbps)", ["throughputMbps"], 3),
        ("duty cycle", ["dutyCycle"], 2),
        ("energy (J)", ["energy", "joules"], 3),
    ]

    private static func row(_ label: String, _ phone: String, _ accessory: String) -> String {
        let padded = label.padding(toLength: 32, withPad: " ", startingAt: 0)
        let value = phone.count < 14 ? phone.padding(toLength: 14, withPad: " ", startingAt: 0) : phone + "  "
        return ("  " + padded + value + accessory).trimmingTrailingSpaces
    }

    private static func format(_ value: JSONValue?, _ digits: Int) -> String {
        switch value {
        case .double(let value)?: number(value, digits)
        case .integer(let value)?: digits > 0 ? number(Double(value), digits) : String(value)
        case .unsigned(let value)?: digits > 0 ? number(Double(value), digits) : String(value)
        case nil: ""
        default: "-"
        }
    }

    static func number(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension JSONValue {
    /// The member at `path` of nested objects, or nil.
    fileprivate subscript(_ path: [String]) -> JSONValue? {
        var current: JSONValue = self
        for key in path {
            guard case .object(let members) = current, let next = members.first(where: { $0.0 == key })?.1 else {
                return nil
            }
            current = next
        }
        return current
    }
}
