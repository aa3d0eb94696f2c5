// ConformanceKit: the phone role, the test catalogue, the runner and its reports. It tests
// the accessory only through the air and the documented control channel.
