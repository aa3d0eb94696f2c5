import AccessoryKit
import ArgumentParser
import AwareCommandLine

AccessoryEmu.mainWithProjectExitCodes()
