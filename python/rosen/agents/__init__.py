"""Players: one small interface (:class:`Agent`) and the agents that implement it.

=====================  ==============================================================
``random``             :class:`RandomAgent`: a uniformly random legal move
``greedy``             :class:`GreedyAgent`: one ply, own score minus the opponent's
``mcts:...``           :class:`MCTSAgent`: rosen's search, options = rosen.SearchParams (+ evaluator=)
``net:path=...``       :class:`NetAgent`: a network's favourite move, no search
``engine:command=...`` :class:`EngineAgent`: any engine speaking PROTOCOL.md
``alphabeta:...``      :class:`AlphaBetaAgent`: the 2024 thesis's alpha-beta (one draw sample)
``expectimax:...``     :class:`ExpectimaxAgent`: sound expectimax (every draw averaged; + evaluator=)
(no spec)              :class:`HumanAgent`: a person at a terminal
(no spec)              :class:`LevelAgent`: another agent weakened to a Strength level, for people
=====================  ==============================================================

Agents are handed positions whose pile order is hidden (R14); a plain ``draw`` they return is
dealt by whoever runs the game (:func:`rosen.match.play_game`).

>>> import rosen
>>> agent = parse_agent("greedy:seed=3")
>>> agent.choose(rosen.Position.new(seed=1)) in rosen.Position.new(seed=1).legal_moves()
True
"""
from .base import Agent, DecisionStats
from .classic import AlphaBetaAgent, ExpectimaxAgent
from .engine import EngineAgent
from .human import HumanAgent, QuitGame
from .level import LevelAgent
from .mcts import MCTSAgent
from .net import NetAgent
from .simple import GreedyAgent, RandomAgent
from .spec import KINDS, AgentSpec, parse_agent, parse_agent_spec

__all__ = ["Agent", "AgentSpec", "AlphaBetaAgent", "DecisionStats", "EngineAgent", "ExpectimaxAgent", "GreedyAgent",
           "HumanAgent", "KINDS", "LevelAgent", "MCTSAgent", "NetAgent", "QuitGame", "RandomAgent", "parse_agent", "parse_agent_spec"]
