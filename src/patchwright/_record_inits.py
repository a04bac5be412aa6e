"""``__init__`` templates of records (see ``patchwright._records``), written out.

Loaded with this module's bytecode instead of compiled when a record class is defined:
a one-line ``patchwright apply`` defines some forty record classes in a fresh
interpreter, and compiling the templates they use was a sizeable part of its start-up.
Each function is ``_records.template_source(count, finish)`` under the name
``_records.written_name(count, finish)``, for every count up to
``_records.WRITTEN_FIELDS`` (tests/test_records.py checks that they compile to the same
code). ``_pw_finish`` is a global of the function each record's ``__init__`` is made into.
"""

# mypy: ignore-errors
# ruff: noqa: F821


def init_0(self):
    _pw_values = self.__dict__


def init_0_finish(self):
    _pw_values = self.__dict__
    _pw_finish(self, _pw_values)


def init_1(self, _pw_p0):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0


def init_1_finish(self, _pw_p0):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_finish(self, _pw_values)


def init_2(self, _pw_p0, _pw_p1):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1


def init_2_finish(self, _pw_p0, _pw_p1):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_finish(self, _pw_values)


def init_3(self, _pw_p0, _pw_p1, _pw_p2):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2


def init_3_finish(self, _pw_p0, _pw_p1, _pw_p2):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_finish(self, _pw_values)


def init_4(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3


def init_4_finish(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_finish(self, _pw_values)


def init_5(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4


def init_5_finish(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_finish(self, _pw_values)


def init_6(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5


def init_6_finish(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_finish(self, _pw_values)


def init_7(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6


def init_7_finish(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_finish(self, _pw_values)


def init_8(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7


def init_8_finish(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_finish(self, _pw_values)


def init_9(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7, _pw_p8):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8


def init_9_finish(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7, _pw_p8):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_finish(self, _pw_values)


def init_10(self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7, _pw_p8, _pw_p9):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9


def init_10_finish(
    self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7, _pw_p8, _pw_p9
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_finish(self, _pw_values)


def init_11(
    self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7, _pw_p8, _pw_p9, _pw_p10
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10


def init_11_finish(
    self, _pw_p0, _pw_p1, _pw_p2, _pw_p3, _pw_p4, _pw_p5, _pw_p6, _pw_p7, _pw_p8, _pw_p9, _pw_p10
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_finish(self, _pw_values)


def init_12(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11


def init_12_finish(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_finish(self, _pw_values)


def init_13(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12


def init_13_finish(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_finish(self, _pw_values)


def init_14(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
    _pw_p13,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_values["_pw_k13"] = _pw_p13


def init_14_finish(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
    _pw_p13,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_values["_pw_k13"] = _pw_p13
    _pw_finish(self, _pw_values)


def init_15(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
    _pw_p13,
    _pw_p14,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_values["_pw_k13"] = _pw_p13
    _pw_values["_pw_k14"] = _pw_p14


def init_15_finish(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
    _pw_p13,
    _pw_p14,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_values["_pw_k13"] = _pw_p13
    _pw_values["_pw_k14"] = _pw_p14
    _pw_finish(self, _pw_values)


def init_16(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
    _pw_p13,
    _pw_p14,
    _pw_p15,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_values["_pw_k13"] = _pw_p13
    _pw_values["_pw_k14"] = _pw_p14
    _pw_values["_pw_k15"] = _pw_p15


def init_16_finish(
    self,
    _pw_p0,
    _pw_p1,
    _pw_p2,
    _pw_p3,
    _pw_p4,
    _pw_p5,
    _pw_p6,
    _pw_p7,
    _pw_p8,
    _pw_p9,
    _pw_p10,
    _pw_p11,
    _pw_p12,
    _pw_p13,
    _pw_p14,
    _pw_p15,
):
    _pw_values = self.__dict__
    _pw_values["_pw_k0"] = _pw_p0
    _pw_values["_pw_k1"] = _pw_p1
    _pw_values["_pw_k2"] = _pw_p2
    _pw_values["_pw_k3"] = _pw_p3
    _pw_values["_pw_k4"] = _pw_p4
    _pw_values["_pw_k5"] = _pw_p5
    _pw_values["_pw_k6"] = _pw_p6
    _pw_values["_pw_k7"] = _pw_p7
    _pw_values["_pw_k8"] = _pw_p8
    _pw_values["_pw_k9"] = _pw_p9
    _pw_values["_pw_k10"] = _pw_p10
    _pw_values["_pw_k11"] = _pw_p11
    _pw_values["_pw_k12"] = _pw_p12
    _pw_values["_pw_k13"] = _pw_p13
    _pw_values["_pw_k14"] = _pw_p14
    _pw_values["_pw_k15"] = _pw_p15
    _pw_finish(self, _pw_values)
