"""Agents (rosen.agents): legal moves, greedy's choice, seeding, the spec parser."""
import random
import re
import sys

import pytest

import rosen
from rosen.agents import (Agent, AgentSpec, GreedyAgent, MCTSAgent, DecisionStats, RandomAgent, parse_agent,
                          parse_agent_spec)



# Red to move, crown on e2 (a red token); a1-d1 and f1-i1 are red. S1 lands on e1 and joins all ten
# red tokens into one territory (100 points); every other card scores far less.
JOIN_POSITION = "9/9/9/9/9/9/9/4r4/rrrr1rrrr e2 r N1,S1,E1,W1,NE1 N3,S3,E3,W3,NE3 4 4 - *"


def positions_along_random_games(players, reshuffle, games=3, seed=0):
    """A sample of non-terminal positions from seeded random games."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        pos = rosen.Position.new(seed + g, players=players, reshuffle=reshuffle)
        while not pos.is_terminal:
            if rng.random() < 0.2:
                out.append(pos)
            pos = pos.play(rng.choice(pos.legal_moves()))
    return out


@pytest.mark.parametrize("players,reshuffle", [(2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy")])
@pytest.mark.parametrize("make", [lambda: RandomAgent(seed=1), lambda: GreedyAgent(seed=1)], ids=["random", "greedy"])
def test_agents_return_legal_moves(players, reshuffle, make):
    agent = make()
    for pos in positions_along_random_games(players, reshuffle):
        hidden = pos.hide_pile_order()
        move = agent.choose(hidden)
        assert isinstance(move, rosen.Move)
        assert pos.is_legal(move), f"{agent!r} chose {move} in {pos.fen()}"


def test_agents_follow_the_protocol():
    for agent in (RandomAgent(), GreedyAgent()):
        assert isinstance(agent, Agent)
        assert agent.last_stats is None  # they do not search


def test_greedy_takes_the_move_that_joins_the_territories():
    pos = rosen.Position(JOIN_POSITION)
    for seed in range(10):
        assert str(GreedyAgent(seed=seed).choose(pos)) == "S1"


def test_greedy_values_a_hero_flip_over_a_plain_play():
    # A white token on d1 splits the red row; from the crown on e1 the hero with W1 flips it and
    # joins a1-c1 to e1-i1 (9 tokens, 81 points, and white loses its only point).
    text = "9/9/9/9/9/9/9/9/rrrwrrrrr e1 r N1,W1,NE1,N2,NW1 N3,S3,E3,W3,NE3 4 4 - *"
    pos = rosen.Position(text)
    assert "H:W1" in [str(m) for m in pos.legal_moves()]
    assert str(GreedyAgent(seed=3).choose(pos)) == "H:W1"


def test_greedy_breaks_ties_by_its_seed():
    pos = rosen.Position.new(seed=4)  # every first move places one token: all tie
    choices = {str(GreedyAgent(seed=s).choose(pos)) for s in range(30)}
    assert len(choices) > 1
    assert str(GreedyAgent(seed=7).choose(pos)) == str(GreedyAgent(seed=7).choose(pos))


def test_random_agent_is_reproducible_and_reset_restarts_it():
    pos = rosen.Position.new(seed=2)
    a = RandomAgent(seed=11)
    first = [str(a.choose(pos)) for _ in range(20)]
    a.reset()
    assert [str(a.choose(pos)) for _ in range(20)] == first
    assert len(set(first)) > 1


def test_agent_refuses_a_finished_game():
    pos = rosen.Position.new(seed=0)
    rng = random.Random(0)
    while not pos.is_terminal:
        pos = pos.play(rng.choice(pos.legal_moves()))
    with pytest.raises(ValueError, match="position"):
        RandomAgent().choose(pos)


def test_bad_seed_names_the_field():
    with pytest.raises(TypeError, match="seed"):
        RandomAgent(seed="x")
    with pytest.raises(ValueError, match="seed"):
        GreedyAgent(seed=-1)


def test_decision_stats_nps_counts_iterations_not_tree_nodes():
    assert DecisionStats(tree_size=9999, iterations=5000, time_ms=250.0).nps == pytest.approx(20000.0)
    assert DecisionStats().nps == 0.0


# --- specs ----------------------------------------------------------------------------------

def test_spec_parser_reads_kinds_and_typed_options():
    spec = parse_agent_spec("mcts:iterations=1000,rollout=random,exploration=0.7")
    assert spec == AgentSpec("mcts", {"iterations": 1000, "rollout": "random", "exploration": 0.7})
    assert str(spec) == "mcts:iterations=1000,rollout=random,exploration=0.7"
    assert parse_agent_spec("random") == AgentSpec("random")
    assert parse_agent_spec(" Greedy:seed=3 ").options == {"seed": 3}
    assert repr(parse_agent_spec("greedy")) == "parse_agent_spec('greedy')"


def test_spec_builds_seeded_agents():
    agent = parse_agent("greedy", seed=9)
    assert isinstance(agent, GreedyAgent) and agent.seed == 9
    fixed = parse_agent_spec("random:seed=4").build(seed=100)  # the spec's own seed wins
    assert isinstance(fixed, RandomAgent) and fixed.seed == 4


@pytest.mark.parametrize("text,field", [
    ("alphazero", "unknown kind"),
    ("mcts:depth=3", "'depth'"),
    ("random:iterations=5", "'iterations'"),
    ("mcts:iterations", "key=value"),
    ("mcts:=5", "key=value"),
    ("uct:rollout=heuristic", "uct: unknown option 'rollout'"),  # plain UCT's knowledge stays off
    ("uct:evaluator=builtin", "uct: unknown option 'evaluator'"),
    ("uct:iterations=-1", "uct: iterations: expected 0.."),
    ("uct:exploration=-0.5", "uct: exploration"),
    # Checked when built only, once: the spec said nothing until the match started.
    ("random:seed=nan", "random: seed: expected an int, got float"),
    ("greedy:seed=-1", "greedy: seed: expected 0..18446744073709551615, got -1"),
    ("net:path=builtin,seed=-1", "net: seed: expected 0.."),
])
def test_spec_parser_rejects_bad_specs(text, field):
    with pytest.raises(rosen.RosenError, match=field) as info:
        parse_agent_spec(text)
    assert info.value.field == "agent"


def test_spec_parser_rejects_non_strings():
    with pytest.raises(TypeError, match="agent"):
        parse_agent_spec(42)


def test_mcts_agent_returns_legal_moves_and_reports_stats():
    agent = MCTSAgent(iterations=200, seed=1)
    pos = rosen.Position.new(seed=3)
    rng = random.Random(0)
    for _ in range(12):
        if pos.is_terminal:
            break
        move = agent.choose(pos.hide_pile_order())
        assert pos.is_legal(move)
        assert agent.last_stats.tree_size > 0 and agent.last_stats.iterations == 200
        pos = pos.play(rng.choice(pos.legal_moves()))
    agent.reset()
    assert agent.last_stats is None


def test_mcts_agent_finds_the_joining_move():
    pos = rosen.Position(JOIN_POSITION)
    assert str(MCTSAgent(iterations=1000, seed=0).choose(pos)) == "S1"


def test_mcts_agent_keeps_one_searcher_and_reports_its_figures():
    agent = parse_agent("mcts:iterations=400,rollout=random", seed=5)
    assert isinstance(agent, MCTSAgent)
    assert agent.params == {"iterations": 400, "rollout": "random", "seed": 5}
    searcher = agent._searcher
    pos = rosen.Position.new(seed=1)
    for _ in range(3):
        move = agent.choose(pos.hide_pile_order())
        assert pos.is_legal(move)
        assert agent._searcher is searcher  # one searcher for the game: its tree survives
        pos = pos.play(move if str(move) != "draw" else "draw:" + pos.draw_pile[0])
    stats = agent.last_stats
    assert stats.iterations == 400 and stats.tree_size > 400 and stats.depth > 0 and stats.seldepth >= stats.depth
    assert stats.time_ms > 0 and stats.nps > 0
    agent.reset()
    assert agent.last_stats is None
    assert repr(agent) == "MCTSAgent(iterations=400, rollout='random', seed=5)"


def test_uct_is_plain_uct_with_random_rollouts_to_the_end():
    # Issue 9's reference opponent `uct`: the MCTS with random rollouts, no cut-off, no implicit
    # minimax; the same seed and budget play exactly what the spelled-out mcts spec plays.
    uct = parse_agent("uct:iterations=300", seed=4)
    assert isinstance(uct, MCTSAgent)
    assert uct.params == {"rollout": "random", "rollout_cutoff": 0, "minimax_weight": 0, "iterations": 300, "seed": 4}
    spelled = parse_agent("mcts:iterations=300,rollout=random,rollout_cutoff=0,minimax_weight=0", seed=4)
    pos = rosen.Position.new(seed=6)
    for _ in range(6):
        view = pos.hide_pile_order()
        move = uct.choose(view)
        assert move == spelled.choose(view) and pos.is_legal(move)
        assert uct.last_stats.iterations == 300
        pos = pos.play(move if str(move) != "draw" else "draw:" + pos.draw_pile[0])
    assert str(parse_agent_spec("uct:time_ms=20")) == "uct:time_ms=20"
    assert parse_agent("uct:time_ms=20", seed=1)._searcher.params.iterations == 0  # a time budget alone


def test_mcts_spec_values_are_checked_by_the_search():
    with pytest.raises(ValueError, match="iterations"):
        parse_agent_spec("mcts:iterations=-3")
    with pytest.raises(ValueError, match="rollout"):
        parse_agent_spec("mcts:rollout=clever")
    parse_agent_spec("mcts:temperature=2.5,hero_cost=10")


def test_engine_spec_needs_a_command_and_a_budget():
    with pytest.raises(ValueError, match="command"):
        parse_agent_spec("engine:iterations=100")
    with pytest.raises(ValueError, match="iterations=N or time_ms"):
        parse_agent_spec("engine:command=rosen engine")
    with pytest.raises(ValueError, match="unknown option"):
        parse_agent_spec("engine:command=rosen engine,iterations=5,depth=3")
    text = "engine:command=rosen engine,iterations=100"
    assert str(parse_agent_spec(text)) == text


@pytest.mark.parametrize("option, words", [
    ("timeout=inf", "timeout: expected seconds in (0, 86400]"),  # once OverflowError mid-match
    ("timeout=1e10", "timeout: expected seconds"), ("timeout=nan", "timeout: expected seconds"),
    ("seed=abc", "seed: expected an int, got str"),  # once a TypeError from seed % 2**31
    ("seed=1.5", "seed: expected an int, got float"), ("seed=-1", "seed: expected an int >= 0"),
    ("threads=abc", "threads: expected an int"), ("threads=0", "threads: expected 1..256"),
    ("iterations=0", "iterations: expected 1..9223372036854775807"),
    ("strength=x", "strength: expected an int, got str"),
    ("time_ms=10000000000000", "time_ms: expected 1..1000000000"),  # once OverflowError in queue.get
])
def test_engine_spec_values_are_checked_when_parsed(option, words):
    with pytest.raises(rosen.InvalidArgumentError, match=re.escape("agent: engine: " + words)):
        parse_agent_spec(f"engine:command=rosen engine,iterations=5,{option}")


def test_an_auto_agent_searches_each_game_with_that_games_network():
    # "auto": builtin with 2 players, builtin-team with 4 -- also one agent playing both, in turn.
    agent = MCTSAgent(evaluator="auto", iterations=20)
    for players, name in ((2, "builtin"), (4, "builtin-team"), (2, "builtin")):
        agent.reset()
        assert rosen.Position.new(1, players=players).is_legal(agent.choose(rosen.Position.new(1, players=players)))
        assert repr(agent._searcher.evaluator) == f"Evaluator({name!r})"


def test_engine_spec_timeout_defaults_to_the_documented_30_seconds():
    from rosen.agents.base import close_agents

    command = f"{sys.executable} -m rosen engine"
    for extra, timeout in (("", 30.0), (",timeout=7.5", 7.5)):
        agent = parse_agent_spec(f"engine:command={command},iterations=5{extra}").build(0)
        try:
            assert agent.client.timeout == timeout
        finally:
            close_agents(agent)


def test_a_network_path_is_text_even_when_it_reads_as_a_number(tmp_path, monkeypatch):
    # TEXT_OPTIONS: a file path as written, never a number ("100" is a file here, not 100).
    import shutil
    from rosen.learning import builtin_network_path

    shutil.copy(builtin_network_path("builtin"), tmp_path / "100")
    monkeypatch.chdir(tmp_path)
    for text in ("net:path=100", "mcts:evaluator=100,iterations=5"):
        spec = parse_agent_spec(text)
        assert spec.options.get("path", spec.options.get("evaluator")) == "100"
        assert spec.build(0).choose(rosen.Position.new(1)) in rosen.Position.new(1).legal_moves()


def test_engine_spec_command_must_split_into_words():
    with pytest.raises(rosen.InvalidArgumentError, match="command: cannot split"):
        parse_agent_spec('engine:command="rosen engine,iterations=5')
    with pytest.raises(rosen.InvalidArgumentError, match="command: expected an engine command line"):
        AgentSpec("engine", {"command": "  ", "iterations": 5})


def test_mcts_agent_reuses_its_tree_between_moves():
    from rosen.match import play_game

    class Spy(MCTSAgent):
        def __init__(self, **params):
            super().__init__(**params)
            self.reused = []

        def choose(self, position):
            move = super().choose(position)
            self.reused.append(self.last_result.reused_visits)
            return move

    spy = Spy(iterations=300, seed=2)
    play_game(spy, RandomAgent(seed=1), seed=3)
    assert spy.reused[0] == 0 and sum(1 for r in spy.reused if r > 0) > len(spy.reused) // 2


def test_an_mcts_agent_on_a_game_clock_spends_the_engines_share_of_what_is_left(monkeypatch):
    # Each move's budget is rosen.engine.clock's share of the clock left (as `go p1time` spends it),
    # the clock pays what each move took and gains the increment, and reset refills it.
    from rosen.engine.clock import allocate_time
    from rosen.agents import mcts as mcts_module

    now = [100.0]
    monkeypatch.setattr(mcts_module, "_now", lambda: now[0])
    budgets = []
    agent = parse_agent("mcts:clock_ms=5000,increment_ms=100,rollout=random", seed=1)
    real_search = agent._searcher.search

    def search(position, **budget):
        budgets.append(budget)
        now[0] += budget["time_ms"] / 1000.0 + 0.004  # the move takes its share and 4 ms more
        return real_search(position, iterations=50)  # the real search, short
    monkeypatch.setattr(agent._searcher, "search", search)
    pos = rosen.Position.new(6)
    left = 5000.0
    for _ in range(6):
        assert agent.clock_left_ms == pytest.approx(left)
        expected = allocate_time(int(agent.clock_left_ms), 100, pos, 1)
        move = agent.choose(pos)
        assert budgets[-1] == {"iterations": 0, "time_ms": expected}
        left += 100 - expected - 4
        assert agent.clock_left_ms == pytest.approx(left)
        pos = pos.play(move if str(move) != "draw" else pos.legal_moves()[0])
    assert budgets[0]["time_ms"] > 60 and agent.params["clock_ms"] == 5000
    agent.reset()
    assert agent.clock_left_ms == 5000
    capped = parse_agent("mcts:clock_ms=5000,iterations=77", seed=1)
    monkeypatch.setattr(capped._searcher, "search", search)
    capped.choose(rosen.Position.new(6))
    assert budgets[-1]["iterations"] == 77  # given iterations cap each move's search too


def test_a_zero_budget_beside_a_clock_is_no_limit():
    # The clock is the budget: iterations=0 (as `mcts:time_ms=...` writes it) or time_ms=0 is no limit.
    for text in ("mcts:clock_ms=1000,iterations=0", "mcts:clock_ms=1000,time_ms=0"):
        agent = parse_agent(text, seed=1)
        assert agent.choose(rosen.Position.new(1)) in rosen.Position.new(1).legal_moves()
        assert agent.last_result.iterations > 1000 or agent.last_result.time_ms > 5, text


def test_an_mcts_agent_on_a_real_clock_spends_most_of_it_and_keeps_within_it():
    from rosen.match import play_game

    # Timed for real: half the clock is spent at least, and never more than a slow machine's
    # overshoot beyond it (the shares keep about 10% back for the turns to come).
    agent = parse_agent("mcts:clock_ms=2000,rollout=random", seed=1)
    play_game(agent, RandomAgent(seed=2), seed=4)
    assert -100 < agent.clock_left_ms < 1000, agent.clock_left_ms


@pytest.mark.parametrize("text, message", [
    ("mcts:clock_ms=0", "clock_ms: expected 1..1000000000, got 0"),
    ("mcts:clock_ms=100,time_ms=5", "time_ms: a player on a game clock"),
    ("mcts:increment_ms=5", "increment_ms: an increment goes with a game clock"),
    ("mcts:clock_ms=100,increment_ms=-1", "increment_ms: expected 0..1000000000, got -1"),
    ("mcts:clock_ms=soon", "clock_ms: expected an int, got str"),
    ("mcts:clock_ms=100,iterations=-1", "iterations: expected 0..1000000000000000, got -1"),
])
def test_a_game_clocks_options_are_checked_in_the_spec(text, message):
    with pytest.raises(ValueError, match="^agent: mcts: " + message):
        parse_agent_spec(text)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=20", "mcts:clock_ms=1000", "alphabeta:depth=2",
                                  "expectimax:depth=2", "net:path=builtin"])
def test_every_agent_names_a_position_that_is_none(spec):
    # random and greedy once raised AttributeError, the classic searchers pybind11's raw TypeError
    agent = parse_agent_spec(spec).build(seed=1)
    for bad in ("x", None, rosen.Position.new(1).fen()):
        with pytest.raises(rosen.ArgumentTypeError, match="position: expected a rosen.Position"):
            agent.choose(bad)


def test_a_level_agent_plays_a_share_of_random_moves():
    from rosen.agents import GreedyAgent, LevelAgent

    positions = []
    for seed in range(60):
        pos = rosen.Position.new(seed)
        for ply in range(seed % 20):
            pos = pos.play(pos.legal_moves()[(ply * 7) % len(pos.legal_moves())])
            if pos.is_terminal:
                break
        if not pos.is_terminal and len(pos.legal_moves()) > 2:
            positions.append(pos.hide_pile_order())
    greedy = GreedyAgent(seed=1)
    wanted = [greedy.choose(p) for p in positions]
    for level, low, high in ((1, 0.45, 0.95), (9, 0.0, 0.2), (20, 0.0, 0.0)):
        agent = LevelAgent(GreedyAgent(seed=1), level, seed=3)
        moves = [agent.choose(p) for p in positions]
        assert all(p.is_legal(m) for p, m in zip(positions, moves))
        share = sum(m != w for m, w in zip(moves, wanted)) / len(positions)
        assert low <= share <= high, (level, share)
    assert LevelAgent(greedy, 4).name == "greedy@level4"
    # The random moves come from the seed and the position: another seed, other moves; the same, the same.
    pos = rosen.Position.new(seed=5)
    by_seed = [str(LevelAgent(GreedyAgent(), level=1, seed=s).choose(pos)) for s in range(8)]
    assert len(set(by_seed)) >= 3 and by_seed == [str(LevelAgent(GreedyAgent(), level=1, seed=s).choose(pos))
                                                   for s in range(8)]
    with pytest.raises(rosen.InvalidArgumentError, match="level: expected 1..20, got 0"):
        LevelAgent(greedy, 0)
    with pytest.raises(rosen.ArgumentTypeError, match="agent: expected an agent"):
        LevelAgent("greedy", 5)
