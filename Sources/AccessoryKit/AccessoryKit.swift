// AccessoryKit: the emulated accessory: its profile, identity, pairing store, PIN display,
// application service and control channel. It knows nothing about tests.
