import Foundation
import Testing

@testable import AwareRadio

/// The project's nl80211 numbers against the text of the installed kernel header
/// (`/usr/include/linux/nl80211.h`, linux-libc-dev 6.1 on Debian 12): the enums are read by
/// counting their entries the way a C compiler numbers them, independently of the CNetlink
/// import that `NL80211ConstantsTests` compares with. Numbers newer than 6.1 must be absent.
@Suite struct NL80211HeaderTests {
    static let headerPath = "/usr/include/linux/nl80211.h"

    /// name -> value for the entries of `enum name { ... };`.
    static func enumeration(_ name: String, in header: String) throws -> [String: Int] {
        let start = try #require(header.range(of: "enum \(name) {"), "enum \(name) not in the header")
        let end = try #require(header.range(of: "};", range: start.upperBound..<header.endIndex))
        var body = String(header[start.upperBound..<end.lowerBound])
        while let open = body.range(of: "/*"), let close = body.range(of: "*/", range: open.upperBound..<body.endIndex)
        {
            body.removeSubrange(open.lowerBound..<close.upperBound)
        }
        body = body.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: "\n")
        var values: [String: Int] = [:]
        var next = 0
        for entry in body.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let entryName = parts.first, !entryName.isEmpty else { continue }
            if parts.count == 2 {
                let text = parts[1]
                if let number = text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text) {
                    next = number
                } else if let known = values[text] {
                    next = known
                } else if text.hasPrefix("1 << "), let shift = Int(text.dropFirst(5)) {
                    next = 1 << shift
                } else {
                    continue  // An expression such as `__NL80211_CMD_AFTER_LAST - 1`: not needed.
                }
            }
            values[entryName] = next
            next += 1
        }
        return values
    }

    typealias Command = NL80211Constants.Command
    typealias Attr = NL80211Constants.Attribute

    @Test func commandsAttributesAndTypesMatchTheHeaderText() throws {
        let header = try String(contentsOfFile: Self.headerPath, encoding: .utf8)
        let commands = try Self.enumeration("nl80211_commands", in: header)
        let commandNames: [(Command, String)] = [
            (.getWiphy, "GET_WIPHY"), (.newWiphy, "NEW_WIPHY"), (.getInterface, "GET_INTERFACE"),
            (.newInterface, "NEW_INTERFACE"), (.deleteInterface, "DEL_INTERFACE"), (.newKey, "NEW_KEY"),
            (.deleteKey, "DEL_KEY"), (.remainOnChannel, "REMAIN_ON_CHANNEL"),
            (.cancelRemainOnChannel, "CANCEL_REMAIN_ON_CHANNEL"), (.registerFrame, "REGISTER_FRAME"),
            (.frame, "FRAME"), (.frameTransmitStatus, "FRAME_TX_STATUS"), (.frameWaitCancel, "FRAME_WAIT_CANCEL"),
            (.startNAN, "START_NAN"), (.stopNAN, "STOP_NAN"), (.addNANFunction, "ADD_NAN_FUNCTION"),
            (.deleteNANFunction, "DEL_NAN_FUNCTION"), (.changeNANConfig, "CHANGE_NAN_CONFIG"), (.nanMatch, "NAN_MATCH"),
        ]
        for (mine, name) in commandNames {
            #expect(commands["NL80211_CMD_" + name] == Int(mine.rawValue), "NL80211_CMD_\(name)")
        }
        // Every command case is either checked above or newer than the header.
        let newer: Set<Command> = [
            .nanNextDWNotification, .nanClusterJoined, .nanSetLocalSchedule, .nanScheduleUpdateDone,
            .nanSetPeerSchedule, .nanULWUpdate, .nanChannelEvacuation,
        ]
        #expect(Set(commandNames.map(\.0)).union(newer) == Set(Command.allCases))
        #expect(newer.allSatisfy { Int($0.rawValue) > commands["NL80211_CMD_NAN_MATCH"]! })
        #expect(!header.contains("NL80211_CMD_NAN_NEXT_DW_NOTIFICATION"))

        let attributes = try Self.enumeration("nl80211_attrs", in: header)
        let attributeNames: [(Attr, String)] = [
            (.wiphy, "WIPHY"), (.wiphyName, "WIPHY_NAME"), (.interfaceIndex, "IFINDEX"), (.interfaceName, "IFNAME"),
            (.interfaceType, "IFTYPE"), (.mac, "MAC"), (.keyData, "KEY_DATA"), (.keyIndex, "KEY_IDX"),
            (.keyCipher, "KEY_CIPHER"), (.supportedInterfaceTypes, "SUPPORTED_IFTYPES"),
            (.supportedCommands, "SUPPORTED_COMMANDS"), (.wiphyFrequency, "WIPHY_FREQ"), (.frame, "FRAME"),
            (.duration, "DURATION"), (.cookie, "COOKIE"), (.frameMatch, "FRAME_MATCH"), (.ack, "ACK"),
            (.transmitFrameTypes, "TX_FRAME_TYPES"), (.receiveFrameTypes, "RX_FRAME_TYPES"), (.frameType, "FRAME_TYPE"),
            (.offchannelTransmitOK, "OFFCHANNEL_TX_OK"),
            (.maxRemainOnChannelDuration, "MAX_REMAIN_ON_CHANNEL_DURATION"),
            (.dontWaitForAck, "DONT_WAIT_FOR_ACK"), (.receiveSignalDBm, "RX_SIGNAL_DBM"), (.wdev, "WDEV"),
            (.splitWiphyDump, "SPLIT_WIPHY_DUMP"), (.socketOwner, "SOCKET_OWNER"),
            (.extendedFeatures, "EXT_FEATURES"), (.nanMasterPreference, "NAN_MASTER_PREF"), (.bands, "BANDS"),
            (.nanFunction, "NAN_FUNC"), (.nanMatch, "NAN_MATCH"),
        ]
        for (mine, name) in attributeNames {
            #expect(attributes["NL80211_ATTR_" + name] == Int(mine.rawValue), "NL80211_ATTR_\(name)")
        }
        #expect(Set(attributeNames.map(\.0)).union(Attr.allCases.filter { $0.rawValue >= 342 }) == Set(Attr.allCases))
        #expect(Attr.allCases.filter { $0.rawValue >= 342 }.allSatisfy { Int($0.rawValue) > attributes.values.max()! })
        #expect(!header.contains("NL80211_ATTR_NAN_CAPABILITIES"))

        let interfaceTypes = try Self.enumeration("nl80211_iftype", in: header)
        #expect(interfaceTypes["NL80211_IFTYPE_STATION"] == 2)
        #expect(interfaceTypes["NL80211_IFTYPE_AP"] == Int(NL80211Constants.InterfaceType.accessPoint.rawValue))
        #expect(interfaceTypes["NL80211_IFTYPE_P2P_DEVICE"] == Int(NL80211Constants.InterfaceType.p2pDevice.rawValue))
        #expect(interfaceTypes["NL80211_IFTYPE_NAN"] == Int(NL80211Constants.InterfaceType.nan.rawValue))

        let functionAttributes = try Self.enumeration("nl80211_nan_func_attributes", in: header)
        for key in NL80211Constants.NANFunctionAttribute.allCases {
            let name = functionAttributes.first {
                $0.value == Int(key.rawValue) && $0.key.hasPrefix("NL80211_NAN_FUNC_")
            }
            #expect(name != nil, "\(key)")
        }
        #expect(functionAttributes["NL80211_NAN_FUNC_INSTANCE_ID"] == 15)
        #expect(functionAttributes["NL80211_NAN_FUNC_TERM_REASON"] == 16)
        let matchAttributes = try Self.enumeration("nl80211_nan_match_attributes", in: header)
        #expect(matchAttributes["NL80211_NAN_MATCH_FUNC_LOCAL"] == 1)
        #expect(matchAttributes["NL80211_NAN_MATCH_FUNC_PEER"] == 2)

        // SECURE_NAN (63) is newer than 6.1: the 6.1 list has 63 features (0...62), so it is
        // the next one added.
        let features = try Self.enumeration("nl80211_ext_feature_index", in: header)
        #expect(features["NL80211_EXT_FEATURE_SECURE_NAN"] == nil)
        #expect(features["NUM_NL80211_EXT_FEATURES"] == Int(NL80211Constants.ExtendedFeature.secureNAN.rawValue))
    }
}
