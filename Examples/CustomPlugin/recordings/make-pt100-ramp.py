#!/usr/bin/env python3
"""Writes pt100-ramp.txt: what a Keithley-2000-style multimeter prints (FORM:ELEM READ,TST,RNUM)
while a 4-wire Pt100 warms from -10 °C to 50 °C at 1 °C/s, read at 2 Hz.

The resistances come from the Callendar-Van Dusen equation (IEC 60751), so the temperature the
lab.rtd transform recovers for a reading at uptime u must be -10 + u. Two faults a real log
has are written in: an open lead (the meter's overflow value 9.9E37) and a line garbled when
the USB adapter was replugged.
"""
A, B, C = 3.9083e-3, -5.775e-7, -4.183e-12


def resistance(t, r0=100.0):
    c = C if t < 0 else 0.0
    return r0 * (1 + A * t + B * t * t + c * (t - 100) * t ** 3)


lines = []
for i in range(121):
    secs = 1234.5 + i * 0.5
    t = -10 + i * 0.5
    reading = "+9.9000000E+37" if i == 70 else "%+.8E" % resistance(t)
    lines.append("%sOHM4W,%+012.3fSECS,%+06dRDNG#" % (reading, secs, 51 + i))
    if i == 40:
        lines.append("+1.0\x7f3E+0")
with open("pt100-ramp.txt", "w") as f:
    f.write("\n".join(lines) + "\n")
