import AccessoryKit
import ArgumentParser

AccessoryEmu.mainWithProjectExitCodes()
