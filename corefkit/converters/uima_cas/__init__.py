"""UIMA CAS (XMI, CAS JSON) as INCEpTION and WebAnno export it, through dkpro-cassis."""
