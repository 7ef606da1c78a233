import common
