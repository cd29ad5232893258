print("push-transcode: under construction")
