"""Hand-built Dragoborne kernel states for the tests that play one step of a turn on a stated board."""

from __future__ import annotations

import numpy as np

from rulesets.dragoborne import kernels as K


def blank_state(row: np.ndarray, colours: list, banners) -> np.ndarray:
    """Both players' kernel state with no card anywhere: the rulings ``row``, every creature place and its
    die empty (-1), each fort and its die of the colour of its banner (``banners[f]``, an index into
    ``colours``)."""
    st = np.zeros((2, K.DK + 1), np.int64)
    for p in range(2):
        st[p, K.LB:K.LB + K.N_RULINGS] = row
        for s in range(K.PLACES):
            st[p, K.CRB + s * K.N_PLACE + K.CR_CARD] = -1
            st[p, K.CRB + s * K.N_PLACE + K.CR_DIE] = -1
        for f in range(K.FORTS):
            st[p, K.FB + f * K.N_FORT + K.F_COLOUR] = colours.index(banners[f])
            st[p, K.DB + f * K.N_DIE + K.D_COLOUR] = colours.index(banners[f])
    return st
