import AwareCore
import AwareWire

extension NL80211Radio {
    /// Sends a frame with `NL80211_CMD_FRAME`. Runs on the scheduler. Its TX status comes
    /// later as `FRAME_TX_STATUS`, matched by the cookie of the kernel's reply; a refused
    /// request is reported at once as not acknowledged.
    func transmit(_ request: TxRequest, from sender: Port) {
        guard !isClosed else { return }
        let now = wallClock.now
        if path == .functionOffload {
            // What the roles handed over (docs/guides/nl80211.md: the driver builds what goes out).
            record(request, at: now)
            transmitOffloaded(request, from: sender, at: now)
            return
        }
        transmitFrame(request, from: sender, at: now)
    }

    /// Tells the taps (`--capture`) about a frame going out.
    func record(_ request: TxRequest, at now: Instant) {
        for tap in taps {
            tap.air(
                carried: request.frame,
                on: request.channel,
                signalDBm: request.powerDBm,
                rate: request.rate,
                at: now
            )
        }
    }

    /// `NL80211_CMD_FRAME` for one frame; the kernel's cookie is kept for its TX status, and the
    /// frame goes to the taps once the kernel accepted it.
    func transmitFrame(_ request: TxRequest, from sender: Port, at now: Instant, recordsIt: Bool = true) {
        // On a NAN device the driver sends in the discovery window of its own cluster; on the
        // USD path the frame goes out on the channel the role chose, off channel if need be.
        let frequency: UInt32? = path == .unsynchronizedFrames ? UInt32(request.channel.frequencyMHz) : nil
        let message = NL80211Request.frame(
            familyID: familyID,
            device: device,
            frame: request.frame,
            frequencyMHz: frequency
        )
        do throws(RadioError) {
            let replies = try commands.perform(message)
            guard let cookie = try replies.first?.attribute(NL80211Constants.Attribute.cookie.rawValue)?.u64Value()
            else {
                throw RadioError.missingAttribute(
                    command: NL80211Constants.Command.frame.rawValue,
                    attribute: NL80211Constants.Attribute.cookie.rawValue
                )
            }
            pending[cookie] = (sender, request.cookie)
            // Only frames the kernel took: a capture shows what went on the air, and a frame the
            // kernel refused never did (a kernel's monitor interface would not show it either).
            if recordsIt { record(request, at: now) }
        } catch {
            reportError(error)
            report(acknowledged: false, for: request, to: sender, at: now)
        }
    }

    /// Tells the operator why the kernel refused: through ``errorHandler``, with the refusals
    /// that end the radio named for what they are (``classified(_:)``) and reported once.
    func reportError(_ error: RadioError) {
        let error = classified(error)
        if error.endsTheRadio {
            guard !radioEnded else { return }
            radioEnded = true
        }
        errorHandler?(error)
    }

    /// cfg80211 refuses commands that need a running interface (`NL80211_FLAG_NEED_RUNNING`:
    /// `FRAME`, `REMAIN_ON_CHANNEL`) with ENETDOWN when it is down, and any command for an
    /// interface index that no longer exists with ENODEV (`iw dev wlan0 del`, an unplugged
    /// adapter). Both end the radio; other refusals stay per frame.
    func classified(_ error: RadioError) -> RadioError {
        guard case .kernelRefused(let command, let errno, let message) = error else { return error }
        let name = interface.name ?? "the interface"
        switch errno {
        case Self.networkDown:
            return .interfaceDown(name: name)
        case NL80211RadioSetup.noSuchDevice:
            return .radioLost(
                interface: name,
                reason: "the kernel answered errno \(errno) (\(message)) to nl80211 command \(command)"
            )
        default:
            return error
        }
    }

    /// ENETDOWN (`asm-generic/errno.h`).
    static let networkDown: Int32 = 100

    /// A TX status decided here rather than by the kernel, delivered after the current work as
    /// a real one would be.
    func report(acknowledged: Bool, for request: TxRequest, to sender: Port, at now: Instant) {
        wallClock.schedule(at: now) { [sender] in
            if sender.attached {
                sender.transmitted(TxStatus(cookie: request.cookie, acknowledged: acknowledged, timestamp: now))
            }
        }
    }

    /// Whether an nl80211 message from the event socket is about this radio's device. The `mlme`
    /// group brings every radio's TX statuses and remain-on-channel events to every listener
    /// (`genlmsg_multicast_netns`), and mac80211 numbers cookies per radio
    /// (`ieee80211_mgmt_tx_cookie`): another radio's "remain-on-channel ended, cookie 1" is not
    /// ours. Judged by `NL80211_ATTR_IFINDEX`, else `NL80211_ATTR_WDEV`; a message with neither is
    /// kept. Safe from the reader thread: it reads only constants.
    func concernsThisRadio(_ message: GenericNetlinkMessage) -> Bool {
        let index = try? message.attribute(NL80211Constants.Attribute.interfaceIndex.rawValue)?.u32Value()
        let wdev = try? message.attribute(NL80211Constants.Attribute.wdev.rawValue)?.u64Value()
        switch device {
        case .interfaceIndex(let own):
            if let index { return index == own }
            if let wdev, let ownWdev = interface.wdev { return wdev == ownWdev }
            return true
        case .wirelessDevice(let own):
            if let wdev { return wdev == own }
            return index == nil
        }
    }

    /// The kernel dropped events for this radio (its event socket overflowed). TX statuses that
    /// were among them will never come: those frames count as not acknowledged (the roles retry).
    /// The end of the listening period may have been among them: on the USD path the period is
    /// cancelled and asked for afresh. Reported once.
    func eventsWereLost() {
        guard !isClosed else { return }
        if !reportedEventLoss {
            reportedEventLoss = true
            errorHandler?(.eventsLost(interface: interface.name ?? device.description))
        }
        let now = wallClock.now
        let lost = pending
        pending = [:]
        for (_, waiting) in lost where waiting.port.attached {
            waiting.port.transmitted(TxStatus(cookie: waiting.requestCookie, acknowledged: false, timestamp: now))
        }
        if path == .unsynchronizedFrames, let period = listening {
            listening = nil
            // It may be over already (ENOENT): nothing to undo then.
            _ = try? commands.perform(.cancelRemainOnChannel(familyID: familyID, device: device, cookie: period.cookie))
            listeningChanged()
        }
    }

    /// Acts on an event from the reader thread. Runs on the scheduler.
    func handle(_ event: NL80211Event) {
        guard !isClosed else { return }
        switch event {
        case .frame(let received):
            deliver(received)
        case .frameTransmitStatus(let status):
            guard let waiting = pending.removeValue(forKey: status.cookie), waiting.port.attached else { return }
            waiting.port.transmitted(
                TxStatus(cookie: waiting.requestCookie, acknowledged: status.acknowledged, timestamp: wallClock.now)
            )
        case .remainOnChannelEnded(let cookie):
            // Listening is continuous: when one period ends, the next begins.
            guard listening?.cookie == cookie else { return }
            listening = nil
            listeningChanged()
        case .nanMatch(let match):
            guard path == .functionOffload else { return }
            receive(match)
        case .nanFunctionTerminated(let cookie, let instanceID, let reason):
            guard path == .functionOffload else { return }
            functionTerminated(cookie: cookie, instanceID: instanceID, reason: reason)
        case .remainOnChannel, .other:
            return
        }
    }

    private func deliver(_ received: NL80211ReceivedFrame) {
        guard let frequency = UInt16(exactly: received.frequencyMHz),
            let channel = NANChannel(frequencyMHz: frequency)
        else { return }
        let now = wallClock.now
        let rssi = received.signalDBm ?? Self.assumedSignalDBm
        for tap in taps { tap.air(carried: received.frame, on: channel, signalDBm: rssi, at: now) }
        let reception = Reception(frame: received.frame, info: RxInfo(channel: channel, rssiDBm: rssi, timestamp: now))
        for port in ports where port.attached && port.listeningChannels.contains(channel) {
            port.receive(reception)
        }
    }

    /// On the USD path, keeps a remain-on-channel period on the lowest listening channel
    /// (channel 6, 2437 MHz, wpa_supplicant's NAN USD default, whenever a port listens there)
    /// and cancels it when nobody listens. A NAN device follows the discovery windows itself.
    func listeningChanged() {
        if path == .functionOffload {
            // After the work that changed the channels: a station is not handed a frame from
            // inside its own change of listening channels.
            wallClock.schedule(at: wallClock.now) { [weak self] in self?.deliverHeldMatches() }
        }
        guard path == .unsynchronizedFrames, !isClosed else { return }
        let wanted = ports.filter(\.attached).flatMap(\.listeningChannels).min().map { UInt32($0.frequencyMHz) }
        if let listening, listening.frequencyMHz == wanted { return }
        if let listening {
            self.listening = nil
            do throws(RadioError) {
                _ = try commands.perform(
                    .cancelRemainOnChannel(familyID: familyID, device: device, cookie: listening.cookie)
                )
            } catch {
                // The period may have ended on its own a moment ago (ENOENT): nothing to undo.
                reportError(error)
            }
        }
        guard let wanted else { return }
        // A wiphy that reports no maximum (or 0) gets the usual one.
        let allowed = wiphy.maxRemainOnChannelDuration.flatMap { $0 > 0 ? $0 : nil } ?? Self.remainOnChannelMilliseconds
        let duration = min(allowed, Self.remainOnChannelMilliseconds)
        let request = NL80211Request.remainOnChannel(
            familyID: familyID,
            device: device,
            frequencyMHz: wanted,
            durationMilliseconds: duration
        )
        do throws(RadioError) {
            guard let cookie = try commands.perform(request).first?.attribute(Self.cookieType)?.u64Value() else {
                throw RadioError.missingAttribute(command: request.message.command, attribute: Self.cookieType)
            }
            listening = (cookie, wanted)
        } catch {
            reportError(error)
        }
    }

    static let cookieType = NL80211Constants.Attribute.cookie.rawValue

    /// mac80211's usual maximum remain-on-channel time (`IEEE80211_MAX_ROC_DURATION`-era
    /// drivers report 5000 ms in `NL80211_ATTR_MAX_REMAIN_ON_CHANNEL_DURATION`).
    static let remainOnChannelMilliseconds: UInt32 = 5000
}
