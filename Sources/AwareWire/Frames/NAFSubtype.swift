/// The OUI Subtype of a NAN Action Frame (nan-wire-reference.md 1.2). Values without a
/// meaning are kept in ``reserved(_:)``.
public enum NAFSubtype: Hashable, Sendable {
    case rangingRequest
    case rangingResponse
    case rangingTermination
    case rangingReport
    case dataPathRequest
    case dataPathResponse
    case dataPathConfirm
    case dataPathKeyInstallment
    case dataPathTermination
    case scheduleRequest
    case scheduleResponse
    case scheduleConfirm
    case scheduleUpdateNotification
    case reserved(UInt8)

    private static let named: [NAFSubtype] = [
        .rangingRequest, .rangingResponse, .rangingTermination, .rangingReport, .dataPathRequest,
        .dataPathResponse, .dataPathConfirm, .dataPathKeyInstallment, .dataPathTermination, .scheduleRequest,
        .scheduleResponse, .scheduleConfirm, .scheduleUpdateNotification,
    ]

    public init(rawValue: UInt8) {
        self = (1...13).contains(rawValue) ? Self.named[Int(rawValue) - 1] : .reserved(rawValue)
    }

    public var rawValue: UInt8 {
        switch self {
        case .rangingRequest: 1
        case .rangingResponse: 2
        case .rangingTermination: 3
        case .rangingReport: 4
        case .dataPathRequest: 5
        case .dataPathResponse: 6
        case .dataPathConfirm: 7
        case .dataPathKeyInstallment: 8
        case .dataPathTermination: 9
        case .scheduleRequest: 10
        case .scheduleResponse: 11
        case .scheduleConfirm: 12
        case .scheduleUpdateNotification: 13
        case .reserved(let value): value
        }
    }

    public var name: String {
        switch self {
        case .rangingRequest: "Ranging Request"
        case .rangingResponse: "Ranging Response"
        case .rangingTermination: "Ranging Termination"
        case .rangingReport: "Ranging Report"
        case .dataPathRequest: "Data Path Request"
        case .dataPathResponse: "Data Path Response"
        case .dataPathConfirm: "Data Path Confirm"
        case .dataPathKeyInstallment: "Data Path Key Installment"
        case .dataPathTermination: "Data Path Termination"
        case .scheduleRequest: "Schedule Request"
        case .scheduleResponse: "Schedule Response"
        case .scheduleConfirm: "Schedule Confirm"
        case .scheduleUpdateNotification: "Schedule Update Notification"
        case .reserved: "Reserved"
        }
    }
}
