# expect: group: No container has run rocminfo yet
rocminfo | grep -m1 gfx
