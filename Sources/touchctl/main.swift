print("touchctl")
