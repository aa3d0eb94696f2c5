import ArgumentParser
import AwareCommandLine

AwareConform.mainWithProjectExitCodes()
