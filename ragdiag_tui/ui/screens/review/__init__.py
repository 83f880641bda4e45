"""The review screen (screen.py) and the parts it is composed of: each part names what it
uses of the screen in a protocol (host.py) and none imports the screen. The dialogs it opens
live one level up, in `ui/screens/`."""
