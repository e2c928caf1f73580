"""Citations shared by a data plugin and the benchmarks on its data (both import them from here, so that neither
imports the other): MajajHong2015, FreemanZiemba2013, Rajalingham2018."""

__all__ = ["FREEMANZIEMBA_BIBTEX", "MAJAJHONG_BIBTEX", "RAJALINGHAM_BIBTEX"]

MAJAJHONG_BIBTEX = """@article{majaj2015simple,
  title   = {Simple learned weighted sums of inferior temporal neuronal firing rates accurately predict human core
             object recognition performance},
  author  = {Majaj, Najib J. and Hong, Ha and Solomon, Ethan A. and DiCarlo, James J.},
  journal = {Journal of Neuroscience}, volume = {35}, number = {39}, pages = {13402--13418}, year = {2015},
  doi     = {10.1523/JNEUROSCI.5181-14.2015}
}"""
FREEMANZIEMBA_BIBTEX = """@article{freeman2013functional,
  title   = {A functional and perceptual signature of the second visual area in primates},
  author  = {Freeman, Jeremy and Ziemba, Corey M. and Heeger, David J. and Simoncelli, Eero P. and Movshon, J. Anthony},
  journal = {Nature Neuroscience}, volume = {16}, number = {7}, pages = {974--981}, year = {2013},
  doi     = {10.1038/nn.3402}
}"""
RAJALINGHAM_BIBTEX = """@article{rajalingham2018large,
  title   = {Large-scale, high-resolution comparison of the core visual object recognition behavior of humans, monkeys,
             and state-of-the-art deep artificial neural networks},
  author  = {Rajalingham, Rishi and Issa, Elias B. and Bashivan, Pouya and Kar, Kohitij and Schmidt, Kailyn and
             DiCarlo, James J.},
  journal = {Journal of Neuroscience}, volume = {38}, number = {33}, pages = {7255--7269}, year = {2018},
  doi     = {10.1523/JNEUROSCI.0388-18.2018}
}"""
