// Runs every example of the guides in Docs/. The test suite runs this executable and expects
// exit status 0; an example whose claim stops holding fails with its precondition.
print("README")
try readmeExamples()
print("Version semantics")
try versionSemanticsExamples()
print("All documentation examples ran.")
