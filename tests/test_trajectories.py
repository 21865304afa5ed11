"""Seeded games whose trajectories must never change: a guard for speed work.

Every built-in profile at every seating it allows, played by random, easy, normal and hard
bots (one round each, two seeds), and a whole game between hard bots for each profile, is
compared with digests recorded from the engine before the speed work of issue 16: the
sha256 of the game record's JSON, and the sha256 of every decision (the legal actions
listed and the action chosen). A speedup that changes a rule, a legal-action listing, a
bot's decision or a record changes a digest. The second game of each kind is played
through ``apply_action`` (every check), the others through ``apply_listed`` (the play
loop's fast path).

Regenerate (only when a behaviour change is intended, and say so in the commit)::

    PYTHONPATH=src python tests/test_trajectories.py
"""

from __future__ import annotations

import hashlib

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.record import GameRecorder, to_json
from handfoot.runs.sim import derive_seed

SEED = 16
BOTS = ("random", "easy", "normal", "hard")
GAMES = 2


FULL = -1
"""The game number of a whole game (every round of the profile) between hard bots, one
per profile at its default seating: later rounds have other opening minimums."""


def cases() -> list[tuple[str, str, str, int]]:
    """(profile, layout, bot, game) of every guarded game."""
    out = []
    for name in builtin_profile_names():
        profile = load_profile(name)
        for layout in profile.layouts:
            for bot in BOTS:
                for game in range(GAMES):
                    out.append((name, str(layout), bot, game))
        out.append((name, str(profile.layout), "hard", FULL))
    return out


def play(profile_name: str, layout_text: str, bot: str, game: int) -> tuple[str, str]:
    """(record digest, decisions digest) of one guarded game."""
    profile = load_profile(profile_name, overrides=None if game == FULL else {"rounds": 1})
    layout = next(x for x in profile.layouts if str(x) == layout_text)
    seed = derive_seed(SEED, profile_name, layout_text, bot, game)
    state = GameState.new(profile, layout=layout, seed=seed)
    bots = [make_bot(bot, derive_seed(SEED, "bot", game, s)) for s in range(layout.players)]
    recorder = GameRecorder(state, seat_names=[bot] * layout.players,
                            metadata={"created_by": "handfoot"})
    decisions = hashlib.sha256()
    while not state.is_over:
        seat = state.to_act
        # the play loop's view (kept between staging steps) where the fast path plays
        view = state.view(seat) if game == 1 else state.play_view(seat)
        action = bots[seat].choose(view)
        decisions.update(repr((seat, tuple(view.legal_actions), action)).encode())
        if game == 1:
            recorder.apply_action(action)  # every check again
        else:
            state.apply_listed(action)  # the fast path of the play loop
    record = hashlib.sha256(to_json(recorder.record()).encode()).hexdigest()
    return record[:16], decisions.hexdigest()[:16]


def key(case: tuple[str, str, str, int]) -> str:
    name, layout, bot, game = case
    return f"{name}_{layout}_{bot}_{'full' if game == FULL else game}"


DIGESTS: dict[str, tuple[str, str]] = {
    'partnership-13_2x2_random_0': ('0b371a241647b7e7', '6028566284c8041b'),
    'partnership-13_2x2_random_1': ('e670d6ab68a17805', '2fbc4d877120e61d'),
    'partnership-13_2x2_easy_0': ('ea4bfdb521307636', '0874ddd06bfb82e3'),
    'partnership-13_2x2_easy_1': ('f172c2090875cd19', '6d07e6535633ae68'),
    'partnership-13_2x2_normal_0': ('4324f5c1c884a892', '69642f0abfd66633'),
    'partnership-13_2x2_normal_1': ('81a612d310cf285b', '8a52de1cd5508e3f'),
    'partnership-13_2x2_hard_0': ('ddf543b9a3e4bc3c', '12c7ef3bc1910a66'),
    'partnership-13_2x2_hard_1': ('05214b34f9957ebf', '3da2475a6c14da11'),
    'partnership-13_2x2_hard_full': ('a194ddb3e2c54c64', '5d0f5cbc5290faea'),
    'bicycle_2x2_random_0': ('18e6159bb743bb78', '667935300fc00137'),
    'bicycle_2x2_random_1': ('ae8f9555de48f922', 'fbf870338d8febbf'),
    'bicycle_2x2_easy_0': ('50d7f917c9336aaf', '0a2f3ab116a09a61'),
    'bicycle_2x2_easy_1': ('b407e3539df46f2e', '164712e48a0afc1e'),
    'bicycle_2x2_normal_0': ('bb86a14e2a8bc280', '7e0c30cd475ed22c'),
    'bicycle_2x2_normal_1': ('2d7cd0af6d74e3e4', 'a2c2b76e7f908c2b'),
    'bicycle_2x2_hard_0': ('69a00ed951377472', 'c21465325eb9e955'),
    'bicycle_2x2_hard_1': ('f103dda7915ab5d6', '558ad3d0d8145a5d'),
    'bicycle_2x2_hard_full': ('4a699a063f4996c9', '4a1a6d70bdb400a7'),
    'biegames_2x2_random_0': ('c783bbc2e4137695', 'c6d3553034eadfd9'),
    'biegames_2x2_random_1': ('2c76ea38c1688114', '542698a327d29551'),
    'biegames_2x2_easy_0': ('eb68e0a5723508aa', '754b8c7a6d992303'),
    'biegames_2x2_easy_1': ('741101f74405f5a4', '3895392cb11c82ad'),
    'biegames_2x2_normal_0': ('b33a67ec61b84fd0', '66fcd5136e864b73'),
    'biegames_2x2_normal_1': ('40c803849a73da93', '4d8940b52c4337d9'),
    'biegames_2x2_hard_0': ('52acc85196d2c053', '9229f4d316778ac5'),
    'biegames_2x2_hard_1': ('a3e931a42994e770', '1e635e956935c7b0'),
    'biegames_2x1_random_0': ('a7fd1ad5818c7951', '672cd3a2f73f23f8'),
    'biegames_2x1_random_1': ('d01b235ff28df6a5', 'c22a33f759d86d46'),
    'biegames_2x1_easy_0': ('89fbcfe429e6235b', 'a471df01b4760f5f'),
    'biegames_2x1_easy_1': ('1147eb69ac6ecf4d', 'ab4643c2b9320f3c'),
    'biegames_2x1_normal_0': ('680eccd29adfbe4d', '6e512398be2fdc30'),
    'biegames_2x1_normal_1': ('115f525e5c53377a', 'f3831b016c423750'),
    'biegames_2x1_hard_0': ('c8e8db8f1d21bbc9', 'eb8e62b65a462f43'),
    'biegames_2x1_hard_1': ('d02503e5d8a11d1c', 'ec34cc0d18749b05'),
    'biegames_2x2_hard_full': ('f1e22716286ed08c', '6838067b0082933c'),
    'hand-knee-foot_2x2_random_0': ('3f68e791ef2c6642', '887df04690a9db6c'),
    'hand-knee-foot_2x2_random_1': ('f61fad534fedd869', '85e7689c72cf7b65'),
    'hand-knee-foot_2x2_easy_0': ('6c8466ccd0b21878', '6701befbf801ef78'),
    'hand-knee-foot_2x2_easy_1': ('c47df92523aaf2c4', '06b795baf18577f4'),
    'hand-knee-foot_2x2_normal_0': ('f77793c3fb0dec41', '01d3ab3f3613ca5d'),
    'hand-knee-foot_2x2_normal_1': ('232b4075009707fd', 'e931ebab7476cc6b'),
    'hand-knee-foot_2x2_hard_0': ('6f6332b07c4ffacd', 'd38c225fb541ac25'),
    'hand-knee-foot_2x2_hard_1': ('19ce3434558d8435', '99dd4ffb9cb31115'),
    'hand-knee-foot_3x1_random_0': ('3cd8d9f423a7fb70', '2f5c922a16a86de6'),
    'hand-knee-foot_3x1_random_1': ('fc5d44e27c4f61f9', '537ef6297e5b105b'),
    'hand-knee-foot_3x1_easy_0': ('0c85c68952acd6b4', '3bdd1f15997256c7'),
    'hand-knee-foot_3x1_easy_1': ('b29d8002b2bc1904', '86bd15985495d313'),
    'hand-knee-foot_3x1_normal_0': ('89592b869d13c8c3', '849debe5982f19c8'),
    'hand-knee-foot_3x1_normal_1': ('e114edc49f191abe', '1a250048a56de28a'),
    'hand-knee-foot_3x1_hard_0': ('7545d220d9d966bd', 'faa8ec7dcb057789'),
    'hand-knee-foot_3x1_hard_1': ('c9f02373e5f8f5ed', '6aa78aa7a0067cc6'),
    'hand-knee-foot_2x3_random_0': ('9641db3ec80d6509', '6ec1283ba893b602'),
    'hand-knee-foot_2x3_random_1': ('b7cb8115910b3342', '190ab29bd7770a0a'),
    'hand-knee-foot_2x3_easy_0': ('be5baf8766539272', 'b02318ab53d6c9d6'),
    'hand-knee-foot_2x3_easy_1': ('4adfc9d3bf5cf662', '48be608a57bdb8fa'),
    'hand-knee-foot_2x3_normal_0': ('4a0eb83433b05ba3', '87d1d49da5c6d7ab'),
    'hand-knee-foot_2x3_normal_1': ('c842d0afc2fe36da', 'af112b02421f5303'),
    'hand-knee-foot_2x3_hard_0': ('264faf85ac592470', '59090ed611821725'),
    'hand-knee-foot_2x3_hard_1': ('91500e721f5e6b28', '7847bd1ac970d868'),
    'hand-knee-foot_2x2_hard_full': ('080941c75eaff162', 'ea635f73775fdf19'),
    'remastered-singles_3x1_random_0': ('d68d9318ee2fa156', '09289784940119da'),
    'remastered-singles_3x1_random_1': ('b239db7800e163eb', '1dbfcbd6dad15939'),
    'remastered-singles_3x1_easy_0': ('4d81fac5c859b0f5', '5ad60866dc1ab514'),
    'remastered-singles_3x1_easy_1': ('883c58ee9621cd7a', '4c533576a238cf49'),
    'remastered-singles_3x1_normal_0': ('4367fde8d9884f72', '7339ac318a13c4d6'),
    'remastered-singles_3x1_normal_1': ('0057061ae4de55c8', '40e4e967c7b3d93d'),
    'remastered-singles_3x1_hard_0': ('142922e14ba1fb53', '1f0043bcea5ca3d6'),
    'remastered-singles_3x1_hard_1': ('a21e3ed5a6995c99', '44774ce5f03390a5'),
    'remastered-singles_2x1_random_0': ('1c70e543f34bf3c2', '64ac15198d1ed6d3'),
    'remastered-singles_2x1_random_1': ('15403251bef69581', 'f6bed450a608aea8'),
    'remastered-singles_2x1_easy_0': ('08298670cdcd4599', '83c3477742705430'),
    'remastered-singles_2x1_easy_1': ('f64e15cb570222b2', '6fffc82d163e8240'),
    'remastered-singles_2x1_normal_0': ('6a4bf3208f5e39a8', 'f69cdb9ea06995e9'),
    'remastered-singles_2x1_normal_1': ('fd69b20a6109d40d', '83cd2553421b60f2'),
    'remastered-singles_2x1_hard_0': ('0429c4b99e9ca5e6', 'f538207c4a4049d0'),
    'remastered-singles_2x1_hard_1': ('a8b72a2ffbeb42cb', '5e95f84fa8e7d3de'),
    'remastered-singles_4x1_random_0': ('64f67ec1bc0d6c35', 'f515b379916a6ba6'),
    'remastered-singles_4x1_random_1': ('792d32436c5893f5', '02080fc40a9fb216'),
    'remastered-singles_4x1_easy_0': ('900e3b8ca54e87b8', '5a3ab9f2de306efa'),
    'remastered-singles_4x1_easy_1': ('8111457dadea38c6', '4679f3f3b864ffb7'),
    'remastered-singles_4x1_normal_0': ('1d5960b35d6a02ac', 'ad183b9005987627'),
    'remastered-singles_4x1_normal_1': ('ac0cf42c5dcc01b4', 'd99d49d163b7374e'),
    'remastered-singles_4x1_hard_0': ('4eac89fb06604727', '6ee391409d60210e'),
    'remastered-singles_4x1_hard_1': ('58383677b8553f59', 'bf822e8cad5f5d74'),
    'remastered-singles_5x1_random_0': ('58cb453f245c0e0a', 'b4450780d2b0d433'),
    'remastered-singles_5x1_random_1': ('e2cd2a0072ae0992', '93c35e605902e134'),
    'remastered-singles_5x1_easy_0': ('6f076b202860afb9', 'f2c2f34f5be46421'),
    'remastered-singles_5x1_easy_1': ('d6df7006e9bcb9c3', '1fa138a89ab68600'),
    'remastered-singles_5x1_normal_0': ('cde6638af4e84e68', 'c3527cda6ff40603'),
    'remastered-singles_5x1_normal_1': ('35bcc6b606e989f8', '31b25762ba1ba735'),
    'remastered-singles_5x1_hard_0': ('21cd1ab743695af6', '7ed1698c6682fba8'),
    'remastered-singles_5x1_hard_1': ('ff330ebfb8245ec5', 'd77210aaa0affd42'),
    'remastered-singles_6x1_random_0': ('fb5a32f2ebaa593e', '0394f868f2c5a661'),
    'remastered-singles_6x1_random_1': ('4471a1b03ede2c82', 'c708fec7949bdb10'),
    'remastered-singles_6x1_easy_0': ('ad9f9187244f9112', '54d14b64698cdbb7'),
    'remastered-singles_6x1_easy_1': ('2926ff2259d3f15b', 'ee73a8fc39d6e99e'),
    'remastered-singles_6x1_normal_0': ('a872830580fc4d0c', '4f8f7e44532b50a2'),
    'remastered-singles_6x1_normal_1': ('42090672a62c3e02', '38e1f0ce4baafd6e'),
    'remastered-singles_6x1_hard_0': ('0f951245035e9a87', '3cdae06727fad28d'),
    'remastered-singles_6x1_hard_1': ('94d3648028aa355e', 'da5c81143bf0d94b'),
    'remastered-singles_7x1_random_0': ('818ab7a6dedf649e', 'fe8eaa173d64368f'),
    'remastered-singles_7x1_random_1': ('9cca4361c029e0c0', 'c02100f4c8daa954'),
    'remastered-singles_7x1_easy_0': ('d8329e1a6a9d585c', 'e7ee53e17b24d10b'),
    'remastered-singles_7x1_easy_1': ('528e8712840c0adc', '988b996f7eae377d'),
    'remastered-singles_7x1_normal_0': ('e5c5558929c0b1a5', '49b55639a4ca1368'),
    'remastered-singles_7x1_normal_1': ('2e882321f0e15261', 'ddc39b89c1db93ef'),
    'remastered-singles_7x1_hard_0': ('34c636a607288191', '4b138a0c37e0021a'),
    'remastered-singles_7x1_hard_1': ('a83aa5d52700c5eb', '51e7ec67b2e7644d'),
    'remastered-singles_8x1_random_0': ('274a005188f63a21', '0a663ee0fc6a14fa'),
    'remastered-singles_8x1_random_1': ('ec20f5caa0af151a', '0174835d6882806b'),
    'remastered-singles_8x1_easy_0': ('ce3abc3e021369af', 'a57f431712f29b22'),
    'remastered-singles_8x1_easy_1': ('8d1ad1be7f5043ca', 'ef91b0b5657d017f'),
    'remastered-singles_8x1_normal_0': ('273f9d1e862a1f56', '512fced5350d8737'),
    'remastered-singles_8x1_normal_1': ('6aba7aa5f80e3011', '8e24e550d8dac94e'),
    'remastered-singles_8x1_hard_0': ('012cc8babc8c0fff', '9599469b423ae99b'),
    'remastered-singles_8x1_hard_1': ('c47f2b7bac739920', 'a2554ce256c2d134'),
    'remastered-singles_3x1_hard_full': ('6af2ef9b9aa13f5a', 'e0484ec58a9304d8'),
    'remastered-teams_2x2_random_0': ('b0559585228fc9e6', '60d2571e0b013d12'),
    'remastered-teams_2x2_random_1': ('93ab76bee436cee5', '1f348affc1acab76'),
    'remastered-teams_2x2_easy_0': ('e4b3819cdb5f687a', 'f7384745229fd2d3'),
    'remastered-teams_2x2_easy_1': ('eaa706668d6231e1', '1d6d2b2d6f3294e5'),
    'remastered-teams_2x2_normal_0': ('94fddba622aa022f', 'cc93030168335c17'),
    'remastered-teams_2x2_normal_1': ('ac71dbe077ccc236', 'f3ddb44b338a7ba4'),
    'remastered-teams_2x2_hard_0': ('0d0de49c3fd3820e', 'd0d7b49f208f4cf2'),
    'remastered-teams_2x2_hard_1': ('4506e1aa26fccefe', '88c44b189ce19d29'),
    'remastered-teams_2x3_random_0': ('429f594c1518d917', '5fda30de9c931dc3'),
    'remastered-teams_2x3_random_1': ('6464a5728e26c75f', '4ff8ea8e3392a638'),
    'remastered-teams_2x3_easy_0': ('265c07c3fafd78aa', 'a67f8e38a9cae979'),
    'remastered-teams_2x3_easy_1': ('72ccc67e5bdc759f', 'bc87f66e5a965e1b'),
    'remastered-teams_2x3_normal_0': ('872883cd82eb0da1', '75314743c698add4'),
    'remastered-teams_2x3_normal_1': ('0425acd78ae999f5', '62b52edfd50a3d49'),
    'remastered-teams_2x3_hard_0': ('d5c85fd1d61b1c2f', '9799fadb7c97b7aa'),
    'remastered-teams_2x3_hard_1': ('91978164295aba18', '7fc02ac501baed86'),
    'remastered-teams_3x2_random_0': ('af957a0f2ad03bf5', 'be15ee0f79b60356'),
    'remastered-teams_3x2_random_1': ('5f16dd1c9244c31a', '32f84208305a8146'),
    'remastered-teams_3x2_easy_0': ('01269658a61f28a8', '8f2279827155d033'),
    'remastered-teams_3x2_easy_1': ('792b2790ad3cc793', '20abfcfbdd58021b'),
    'remastered-teams_3x2_normal_0': ('b8a837bfc303ae5e', 'e3c26a02a758a87a'),
    'remastered-teams_3x2_normal_1': ('2bacf79906ebb890', '2ac668f9307b00e4'),
    'remastered-teams_3x2_hard_0': ('005942bee4b08d53', 'fbfa7029c25b635d'),
    'remastered-teams_3x2_hard_1': ('b6f04b05db6e2aed', '2ba1f1c60b382467'),
    'remastered-teams_2x4_random_0': ('567e035559d29226', 'ddef4d325d4e3335'),
    'remastered-teams_2x4_random_1': ('ebca77c363dfe5a3', 'fd04d03c63a030e1'),
    'remastered-teams_2x4_easy_0': ('8a91d634234781fe', '2dea0a94b89433e7'),
    'remastered-teams_2x4_easy_1': ('93f30040c12f4481', '574abdf52a00a648'),
    'remastered-teams_2x4_normal_0': ('b127dc5c42d8706c', '65ff0070429a5320'),
    'remastered-teams_2x4_normal_1': ('764d7322849bed36', 'b91834d170221d37'),
    'remastered-teams_2x4_hard_0': ('cb959e8760507178', '27390632951ec9e2'),
    'remastered-teams_2x4_hard_1': ('b00ab4e16f32a2dc', '5a62324c64531222'),
    'remastered-teams_4x2_random_0': ('b1e7e159533f25af', '3473649651e8552f'),
    'remastered-teams_4x2_random_1': ('8f1b8223e1f5a298', 'bbb491bb7f1709e2'),
    'remastered-teams_4x2_easy_0': ('7903dceeeb08efa8', '48d9ccec30847266'),
    'remastered-teams_4x2_easy_1': ('fbecd6a4c5c3329d', '1d93048974f59162'),
    'remastered-teams_4x2_normal_0': ('5c46e88805c32dd3', '808c56638f1e9e2a'),
    'remastered-teams_4x2_normal_1': ('cd3cee28e94743e9', '3a977c4c8abdf0b6'),
    'remastered-teams_4x2_hard_0': ('cc84f2353fbc5ff8', '92fec8106d1bc083'),
    'remastered-teams_4x2_hard_1': ('202b9f48ab6bacff', '22ada3b554eafac1'),
    'remastered-teams_2x2_hard_full': ('f8c823c28b35427d', '7c92a9f6a0f4aa53'),
}


@pytest.mark.parametrize("case", cases(), ids=key)
def test_the_seeded_game_plays_as_it_always_has(case: tuple[str, str, str, int]) -> None:
    assert play(*case) == DIGESTS[key(case)]


def test_every_guarded_game_has_digests() -> None:
    assert sorted(DIGESTS) == sorted(key(c) for c in cases())


if __name__ == "__main__":
    for c in cases():
        print(f"    {key(c)!r}: {play(*c)!r},")
