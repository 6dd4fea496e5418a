import ArgumentParser
print("epub2audio")
